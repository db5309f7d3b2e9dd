import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, requireBuilt, run, userEnv } from "./helpers/markdown-snippets.js";

// `npm start` (scripts/start.sh), `npm run link-cli` and `pnpm memory` (scripts/memory.sh).
// MEMORY_START_SKIP_SETUP=1 skips install + build: the test command has built everything.

const start = (args: string[], env: Record<string, string> = {}) =>
  run("bash", ["scripts/start.sh", ...args], {
    cwd: REPO,
    env: userEnv(tmpdir(), { MEMORY_START_SKIP_SETUP: "1", ...env }),
  });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("npm start arguments", () => {
  it("rejects an unknown argument, saying what is accepted", async () => {
    const result = await start(["--prot", "8790"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown argument "--prot"');
    expect(result.stderr).toContain("accepted: --port <port>, --host <host>, --config <file>");
  });

  it("explains `npm start --port 8790` without `--`, where npm keeps --port for itself", async () => {
    const result = await start(["8790"], { npm_config_port: "true" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("npm start -- --port 8790");
  });

  it("rejects a port that is not a number before installing anything", async () => {
    const result = await start(["--port", "http"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port must be an integer from 0 to 65535 (got "http")');
    expect(result.stderr).not.toContain("== install");
  });

  it("prints its usage for --help", async () => {
    const result = await start(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: npm start -- [--port <port>] [--host <host>]");
  });
});

describe("npm start, link-cli and pnpm memory on a real store", () => {
  let dir: string;
  let config: string;
  beforeAll(() => {
    requireBuilt("apps/server/dist/main.mjs", "apps/cli/dist/memory.mjs");
    dir = mkdtempSync(path.join(tmpdir(), "memory-start-"));
    config = path.join(dir, "memory.toml");
    writeFileSync(config, '[memory]\nembedding_provider = "noop"\ndata_dir = "."\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("serves on MEMORY_SERVER_PORT when no --port is given", async () => {
    const port = await freePort();
    const { spawn } = await import("node:child_process");
    const child = spawn("bash", ["scripts/start.sh", "--config", config], {
      cwd: REPO,
      env: userEnv(dir, { MEMORY_START_SKIP_SETUP: "1", MEMORY_SERVER_PORT: String(port) }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      child.stdout.setEncoding("utf8");
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: string) => {
          output += chunk;
          // The banner's last line: everything above it has been printed.
          if (output.includes("Ctrl-C stops")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`start.sh exited ${code}`)));
      });
      expect(output).toContain(`listening on http://127.0.0.1:${port}`);
      // The banner names the web inspector, and it answers there.
      const inspector = /inspector: +(http:\/\/\S+)/.exec(output)?.[1];
      expect(inspector).toBe(`http://127.0.0.1:${port}/ui`);
      expect((await fetch(inspector!)).status).toBe(200);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("`pnpm memory` runs the built CLI on MEMORY_CONFIG", async () => {
    const result = await run("bash", ["scripts/memory.sh", "config", "show"], {
      cwd: REPO,
      env: userEnv(dir, { MEMORY_CONFIG: config }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(config);
  });

  it("link-cli refuses to overwrite a `memory` it did not write", async () => {
    const bin = path.join(dir, "bin");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, "memory"), "#!/bin/sh\necho someone else's\n");
    const result = await run("bash", ["scripts/link-cli.sh", bin], {
      cwd: REPO,
      env: userEnv(dir),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("was not written by link-cli");
  });
});
