import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

interface WorkspacePackage {
  name: string;
  private?: boolean;
}

let out: string;
let publicPackages: string[];
let packed: { stdout: string; stderr: string };

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), "memory-pack-all-"));
  const listed = await run("pnpm", ["ls", "-r", "--depth", "-1", "--json"], { cwd: repo });
  publicPackages = (JSON.parse(listed.stdout) as WorkspacePackage[])
    .filter((workspacePackage) => !workspacePackage.private)
    .map((workspacePackage) => workspacePackage.name);
  // --no-build: `npm test` builds every package before the tests (scripts/test.sh).
  packed = await run("bash", [path.join(repo, "scripts/pack-all.sh"), "--no-build", "--out", out], {
    cwd: repo,
  });
});

afterAll(async () => {
  if (out !== undefined) await rm(out, { recursive: true, force: true });
});

describe("scripts/pack-all.sh", () => {
  it("packs every public workspace package, new ones included, and checks each tarball", async () => {
    expect(publicPackages).toContain("@memory/api");
    expect(publicPackages).not.toContain("@memory/pack-check");
    const files = await readdir(out);
    for (const name of publicPackages) {
      const prefix = `${name.slice(1).replace("/", "-")}-`;
      expect(files.filter((file) => file.startsWith(prefix))).toHaveLength(1);
      // The size table names it: check-packs.mjs found no problem (it exits 1 otherwise).
      expect(packed.stdout).toContain(name);
    }
    expect(files).toHaveLength(publicPackages.length);
  });

  it("refuses a name that is not a public package of the workspace", async () => {
    const refused = await run(
      "bash",
      [path.join(repo, "scripts/pack-all.sh"), "--no-build", "--out", out, "@memory/pack-check"],
      { cwd: repo },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain("not a public package");
  });

  it("check-packs.mjs rejects a tarball that would not install or import cleanly", async () => {
    const dir = path.join(out, "broken");
    await mkdir(path.join(dir, "package"), { recursive: true });
    await writeFile(
      path.join(dir, "package", "package.json"),
      JSON.stringify({
        name: "@memory/broken",
        version: "0.0.1",
        type: "module",
        exports: { ".": { types: "./dist/index.d.mts", default: "./dist/index.mjs" } },
        dependencies: { "@memory/api": "workspace:*" },
      }),
    );
    const tarball = path.join(dir, "broken.tgz");
    await run("tar", ["-czf", tarball, "-C", dir, "package"]);
    const checked = await run("node", [path.join(repo, "scripts/check-packs.mjs"), tarball]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(checked).toMatchObject({ code: 1 });
    const { stderr } = checked as { stderr: string };
    for (const problem of [
      "no README.md",
      "no LICENSE",
      'no "license" field',
      'no "engines.node" field',
      "exports names ./dist/index.mjs, which is not in the tarball",
      'dependencies.@memory/api is still "workspace:*"',
    ]) {
      expect(stderr).toContain(problem);
    }
  });
});
