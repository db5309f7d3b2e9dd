import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createMarkdownMemory, TreeLock } from "../src/index.js";
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
