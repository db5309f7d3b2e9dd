import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createMarkdownMemory, TreeLock, withTreeLock } from "../src/index.js";
import { tempDir } from "./helpers.js";

describe("tree lock", () => {
  it("takes over a lock whose process is gone", async () => {
    const root = tempDir();
    const file = join(root, ".memory-state", "lock");
    mkdirSync(join(root, ".memory-state"));
    // pid 2^22 + 1 is above Linux's pid_max default: no such process.
    writeFileSync(
      file,
      JSON.stringify({ pid: 4_194_305, host: hostname(), time: Date.now(), token: "x" }),
    );
    const ran = await new TreeLock(file).run(() => readFileSync(file, "utf8"));
    expect(JSON.parse(ran).pid).toBe(process.pid);
    expect(existsSync(file)).toBe(false);
  });

  it("waits for a live holder and gives up with TIMEOUT", async () => {
    const root = tempDir();
    const file = join(root, "lock");
    writeFileSync(
      file,
      JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now(), token: "held" }),
    );
    const error = await new TreeLock(file, { timeoutMs: 50, sleep: () => Promise.resolve() })
      .run(() => "never")
      .catch((caught) => caught);
    expect(MemoryError.hasCode(error, "TIMEOUT")).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8")).token).toBe("held");
  });

  it("takes over a lock older than staleMs even if its process runs", async () => {
    const root = tempDir();
    const file = join(root, "lock");
    writeFileSync(
      file,
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        time: Date.now() - 120_000,
        token: "old",
      }),
    );
    expect(await new TreeLock(file, { staleMs: 60_000 }).run(() => "ran")).toBe("ran");
  });
});

describe("tree lock across processes", () => {
  it("lets a waiting process in while another has a queue of writes", async () => {
    const root = tempDir();
    const holds = 400;
    // Four loops keep the lock busy back to back for at least 400 x 10 ms.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        fileURLToPath(new URL("./fixtures/lock-queue.ts", import.meta.url)),
        root,
        String(holds),
        "4",
        "10",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      let output = "";
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
          output += chunk;
          if (output.includes("holding")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`the queue process exited (${code})`)));
      });
      // Without claims the queue process takes the lock again in the tick it lets it go, and this
      // process, polling, finds it free only by chance.
      const seen = await withTreeLock(
        root,
        () => Number(readFileSync(join(root, "holds"), "utf8")),
        {
          timeoutMs: 120_000,
          claimAfterMs: 50,
        },
      );
      // It claims the next turn after 50 ms (five holds) and gets the one after: 5-6 here. Without
      // claims it got in after 41 and 212 holds in two runs, and a store waiting on a 1M-entry
      // tree timed out.
      expect(seen).toBeGreaterThan(0);
      expect(seen).toBeLessThanOrEqual(20);
      expect(existsSync(join(root, ".memory-state", "lock.next"))).toBe(false);
    } finally {
      child.kill();
    }
  }, 180_000);
});

describe("namespaces too long for a directory name", () => {
  it("stores them under a hashed directory with the name beside, and reads them back", async () => {
    const root = tempDir();
    const namespace = "团队".repeat(100);
    const memory = createMarkdownMemory({ root, index: false });
    await memory.store({ key: "k", content: "v", namespace });
    await memory.close();
    const fresh = createMarkdownMemory({ root, index: false });
    expect((await fresh.get("k", { namespace }))?.content).toBe("v");
    const [hit] = await fresh.recall("v", { namespace, minScore: 0 });
    expect(hit?.source?.path).toMatch(/^namespaces\/~[0-9a-f]{32}\/MEMORY\.md$/);
    expect((await fresh.readSegment({ path: hit!.source!.path })).namespace).toBe(namespace);
    await fresh.close();
  });
});
