import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { FlushOptions, Memory } from "@memory/api";
import { createInMemoryMemory } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { silentLogger, startServer } from "../src/index.js";
import { mainEntry, requireServerBuilt, requireSqliteBuilt } from "./backends.js";
import { TOKEN_ALL } from "./helpers.js";

/** The reference memory with a gate in front of recall and a record of flush calls. */
function gatedMemory() {
  const inner = createInMemoryMemory();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered!: () => void;
  const recallStarted = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const flushes: (FlushOptions | undefined)[] = [];
  const memory = new Proxy(inner, {
    get(target, property) {
      if (property === "recall") {
        return async (query: string, options?: object) => {
          entered();
          await gate;
          return target.recall(query, options);
        };
      }
      if (property === "flush") {
        return async (options?: FlushOptions) => {
          flushes.push(options);
          return target.flush();
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as Memory;
  return { memory, inner, open, recallStarted, flushes };
}

const execFileAsync = promisify(execFile);

function waitForExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

function collect(stream: NodeJS.ReadableStream | null): { text: string } {
  const out = { text: "" };
  stream?.on("data", (chunk) => {
    out.text += chunk.toString();
  });
  return out;
}

/**
 * Resolves once `out` (filled by `collect`) contains `marker`, rejects if the child exits first.
 * Event-driven: no sleeps, so a slow start-up only makes the wait longer, never fails it.
 */
function waitForOutput(
  child: ChildProcess,
  stream: NodeJS.ReadableStream | null,
  out: { text: string },
  marker: string,
  stderr: { text: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!out.text.includes(marker)) return;
      stream?.off("data", check);
      child.off("exit", onExit);
      resolve();
    };
    const onExit = (code: number | null) => {
      stream?.off("data", check);
      reject(new Error(`main.mjs exited (${code}) before printing ${marker}: ${stderr.text}`));
    };
    stream?.on("data", check);
    child.once("exit", onExit);
    check();
  });
}

describe("graceful shutdown", () => {
  it("stops accepting, finishes in-flight requests, then flushes deferred work", async () => {
    const { memory, inner, open, recallStarted, flushes } = gatedMemory();
    const handle = await startServer({
      memory,
      port: 0,
      env: {},
      logger: silentLogger,
      tokens: [{ token: TOKEN_ALL, namespaces: ["*"] }],
      // Generous: if it ran out before open() below (a busy machine), close() would cut the
      // in-flight request. Nothing waits for it: close() returns as soon as the request is done.
      shutdownTimeoutMs: 60_000,
    });
    const inFlight = fetch(`${handle.url}/v1/recall`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN_ALL}` },
      body: JSON.stringify({ query: "anything" }),
    });
    await recallStarted;
    const closing = handle.close();
    // New connections are refused while the old request is still running.
    await expect(fetch(`${handle.url}/healthz`)).rejects.toThrow();
    expect(flushes).toEqual([]);
    open();
    const response = await inFlight;
    expect(response.status).toBe(200);
    await closing;
    expect(flushes).toEqual([{ timeoutMs: 60_000 }]);
    // An injected memory belongs to the caller: still open.
    expect(await inner.count()).toBe(0);
    await inner.close();
    await handle.close(); // idempotent
  });

  it("closes a memory it opened itself", async () => {
    const handle = await startServer({
      config: { memory: { backend: "none", embedding_provider: "noop" } as never },
      port: 0,
      env: {},
      logger: silentLogger,
      allowUnauthenticatedLoopback: true,
    });
    await handle.close();
    await expect(handle.memory.count()).rejects.toMatchObject({ code: "BACKEND_UNAVAILABLE" });
  });

  it("rejects with a clear error when the port is taken", async () => {
    const first = await startServer({
      memory: createInMemoryMemory(),
      port: 0,
      env: {},
      logger: silentLogger,
      allowUnauthenticatedLoopback: true,
    });
    try {
      await expect(
        startServer({
          memory: createInMemoryMemory(),
          port: first.port,
          env: {},
          logger: silentLogger,
          allowUnauthenticatedLoopback: true,
        }),
      ).rejects.toThrow(/already in use.*--port/);
    } finally {
      await first.close();
    }
  });
});

describe("dist/main.mjs", () => {
  it("prints the URL, data location and MCP instructions, serves, and exits 0 on SIGTERM", async () => {
    requireServerBuilt();
    requireSqliteBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), "memory-main-"));
    try {
      const config = path.join(dir, "memory.toml");
      writeFileSync(
        config,
        `[memory]\nbackend = "sqlite"\ndata_dir = "."\nembedding_provider = "noop"\n`,
      );
      const child = spawn(
        process.execPath,
        [mainEntry, "--config", config, "--port", "0", "--allow-unauthenticated-loopback"],
        { cwd: dir, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
      );
      const exited = waitForExit(child);
      const stdout = collect(child.stdout);
      const stderr = collect(child.stderr);
      await waitForOutput(child, child.stdout, stdout, "Ctrl-C", stderr);
      const url = /listening on (http:\/\/\S+)/.exec(stdout.text)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(stdout.text).toContain(`MCP (HTTP):   ${url}/mcp`);
      expect(stdout.text).toContain(`--mcp --config ${config}`);
      expect(stdout.text).toContain(`data:         ${dir}`);
      const health = (await (await fetch(`${url}/healthz`)).json()) as { version: string };
      expect(health.version).toMatch(/^\d+\.\d+\.\d+$/);
      const stored = await fetch(`${url}/v1/memories`, {
        method: "POST",
        body: JSON.stringify({ key: "k", content: "stored through main.mjs" }),
      });
      expect(stored.status).toBe(200);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(stderr.text).toContain("SIGTERM: shutting down");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints curl examples that carry the token's header, and they work as printed", async () => {
    requireServerBuilt();
    const token = "banner-token-0123456789abcdefghij";
    const child = spawn(process.execPath, [mainEntry, "--port", "0"], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? "", MEMORY_BACKEND: "none", MEMORY_SERVER_TOKEN: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const stdout = collect(child.stdout);
      const stderr = collect(child.stderr);
      await waitForOutput(child, child.stdout, stdout, "Ctrl-C", stderr);
      const curls = stdout.text
        .split("\n")
        .map((line) => line.replace(/^\s*(try:)?\s*/, ""))
        .filter((line) => line.startsWith("curl "));
      expect(curls).toHaveLength(2);
      expect(stdout.text).not.toContain(token);
      for (const curl of curls) {
        expect(curl).toContain('-H "authorization: Bearer $MEMORY_SERVER_TOKEN"');
        // Run as a user would, in a shell where the variable is set.
        const { stdout: answer } = await execFileAsync("sh", ["-c", `${curl} -w ' %{http_code}'`], {
          env: { PATH: process.env.PATH ?? "", MEMORY_SERVER_TOKEN: token },
        });
        expect(answer, curl).toMatch(/ 200$/);
      }
    } finally {
      child.kill("SIGTERM");
      await waitForExit(child);
    }
  });

  it("refuses to start without a token and says what to set", async () => {
    requireServerBuilt();
    const child = spawn(process.execPath, [mainEntry, "--port", "0"], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? "", MEMORY_BACKEND: "none" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stderr = collect(child.stderr);
    expect(await waitForExit(child)).toBe(1);
    expect(stderr.text).toMatch(/^error: No server token is configured\. Set MEMORY_SERVER_TOKEN/);
    expect(stderr.text).toContain("--allow-unauthenticated-loopback");
  });
});
