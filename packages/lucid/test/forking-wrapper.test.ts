import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLucidMemory, type LucidMemory } from "../src/index.js";
import { runLucid } from "../src/lucid-cli.js";
import { tempDir } from "./helpers.js";

// Most CLIs are installed as a shell wrapper that runs the real program as a child (no `exec`).
// Killing only the wrapper orphans the child, which keeps the output pipes open: these tests
// make sure a timeout or a cancel ends the whole process group and stops waiting for its pipes.

const open: LucidMemory[] = [];
afterEach(async () => {
  for (const memory of open.splice(0)) await memory.close();
});

/** A `/bin/sh` wrapper that forks `sleep 30` (writing its pid to `pidFile`) and waits for it. */
function forkingWrapper(dir: string, pidFile: string): string {
  const path = join(dir, "lucid-wrapper.sh");
  writeFileSync(
    path,
    `#!/bin/sh\nsleep 30 &\necho $! > "${pidFile}.tmp"\nmv "${pidFile}.tmp" "${pidFile}"\nwait\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** Whether `pid` still runs; a zombie (killed, not yet reaped by its new parent) counts as ended. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Polls `condition` every 20 ms until it holds; fails the test after `boundMs`. */
async function until(condition: () => boolean, what: string, boundMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > boundMs) throw new Error(`still waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a command that forks (a shell wrapper without exec)", () => {
  it("ends a hanging recall at the recall timeout, not when the wrapper's child exits", async () => {
    const dir = tempDir();
    const memory = createLucidMemory({
      command: forkingWrapper(dir, join(dir, "child.pid")),
      sqlite: { path: join(dir, "brain.db"), logger: () => {} },
      logger: () => {},
      recallTimeoutMs: 50,
    });
    open.push(memory);
    await memory.importEntries([{ key: "local", content: "the pipeline runbook" }]);
    const started = Date.now();
    const results = await memory.recall("pipeline runbook");
    const elapsed = Date.now() - started;
    expect(results.map((entry) => entry.key)).toEqual(["local"]);
    const details = (await memory.healthCheck()).details.lucid as {
      lastFailure?: { reason: string };
    };
    // It returned because the timeout killed the command, not because the child finished.
    expect(details.lastFailure!.reason).toMatch(/did not answer within 50 ms and was killed/);
    // Sanity bound only: before the fix this waited for the whole `sleep 30`.
    expect(elapsed).toBeLessThan(20_000);
  }, 60_000);

  it("kills the wrapper's child too (the whole process group) when the run is canceled", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "child.pid");
    const controller = new AbortController();
    const run = runLucid(forkingWrapper(dir, pidFile), [], {
      timeoutMs: 120_000,
      maxOutputBytes: 1024,
      env: {},
      signal: controller.signal,
    });
    // Observed at once: the run rejects the moment it is canceled, before the test looks at it.
    const outcome = run.then(
      () => undefined,
      (error: unknown) => error,
    );
    // Gate: cancel only once the child exists, so the test checks a real orphan every time.
    await until(() => existsSync(pidFile), "the wrapper's child to start");
    const child = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(child)).toBe(true);
    controller.abort();
    // Before the fix only the wrapper was killed and `sleep 30` lived on (holding the pipes).
    await until(() => !alive(child), "the wrapper's child to be killed");
    expect(await outcome).toMatchObject({ kind: "canceled" });
  }, 60_000);
});
