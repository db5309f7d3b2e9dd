import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory, type SqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const memories: SqliteMemory[] = [];
afterEach(async () => {
  for (const memory of memories.splice(0)) await memory.close();
});

/**
 * The longest gap between timer callbacks that ask for 10 ms, over `ms` of wall time: how long
 * the event loop was blocked at once.
 */
async function longestBlock(ms: number): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const end = last + ms;
  while (performance.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }
  return longest;
}

describe("sqlite: a write waiting for another connection's lock", () => {
  it("waits on a timer, the event loop free, and lands once the lock is released", async () => {
    const path = tempDbPath();
    const memory = createSqliteMemory({ path, logger: () => {} });
    memories.push(memory);
    await memory.store({ key: "first", content: "The user likes green tea" });

    // Another connection (another process, as far as SQLite can tell) holds the write lock.
    const holder = new Database(path);
    holder.prepare("BEGIN IMMEDIATE").run();
    let settled = false;
    const pending = memory
      .store({ key: "second", content: "The user walks the dog at seven" })
      .finally(() => {
        settled = true;
      });
    // SQLite's own wait (busy_timeout, 5 s) would block this thread: no timer would fire and the
    // holder, on this same thread, could not commit until it gave up.
    const blocked = await longestBlock(300);
    expect(settled).toBe(false);
    holder.prepare("COMMIT").run();
    holder.close();
    await pending;

    expect(blocked).toBeLessThan(2000);
    expect((await memory.get("second"))?.content).toBe("The user walks the dog at seven");
  });
});
