import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, run } from "./helpers/markdown-snippets.js";
import { requireBuiltCli } from "./helpers/run-memory.js";

// `npm run link-cli` must not claim `memory` is on the PATH when its directory is not: it says
// so and prints the exact line to add.
describe("npm run link-cli", () => {
  const home = mkdtempSync(path.join(tmpdir(), "memory-link-cli-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const bin = path.join(home, ".local", "bin");
  const link = (PATH: string, SHELL = "/bin/bash") => {
    requireBuiltCli();
    return run("bash", ["scripts/link-cli.sh"], {
      cwd: REPO,
      env: { ...process.env, HOME: home, PATH, SHELL },
    });
  };

  it("says when ~/.local/bin is not on the PATH and prints the line to add", async () => {
    const result = await link("/usr/bin:/bin");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`linked ${bin}/memory`);
    expect(result.stderr).toContain(`${bin} is NOT on your PATH`);
    expect(result.stderr).toContain(`Add this line to ~/.bashrc`);
    expect(result.stderr).toContain(`\n  export PATH="${bin}:$PATH"\n`);
    expect(result.stderr).not.toContain("try: memory");
    // zsh users get their own file named.
    expect((await link("/usr/bin:/bin", "/usr/bin/zsh")).stderr).toContain("~/.zshrc");
  });

  it("says nothing about the PATH when the directory is on it (with or without a trailing slash)", async () => {
    for (const entry of [bin, `${bin}/`]) {
      const result = await link(`/usr/bin:${entry}:/bin`);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain("NOT on your PATH");
      expect(result.stderr).toContain("try: memory --help");
    }
    const version = await run(path.join(bin, "memory"), ["--version"], {
      cwd: home,
      env: { ...process.env, HOME: home },
    });
    expect(version.code, version.stderr).toBe(0);
  });
});
