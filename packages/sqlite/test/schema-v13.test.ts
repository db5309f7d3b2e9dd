import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/migrations/schema.js";
import { tempDbPath } from "./helpers.js";

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

// The change triggers on `memories` as schema v10 wrote them (the token only, no log).
const V10_TRIGGERS = ["insert", "update", "delete"]
  .map((event) => {
    const when = event === "insert" ? " WHEN memory_bulk_loading(new.doc_id) = 0" : "";
    return `DROP TRIGGER memories_change_${event};
CREATE TRIGGER memories_change_${event} AFTER ${event.toUpperCase()} ON memories${when} BEGIN
  UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'change_seq';
END;`;
  })
  .join("\n");

describe("schema v13: the change log", () => {
  it("upgrades a v12 file: rows kept, and every later write logged", async () => {
    const path = tempDbPath();
    const first = createSqliteMemory({ path, logger: () => {} });
    await first.store({ key: "lake", content: "We drove to the lake", sessionId: "s1" });
    await first.close();
    const raw = new Database(path);
    raw.exec(`${V10_TRIGGERS}
      DROP TABLE memory_changes;
      UPDATE meta SET value = '12' WHERE key = 'schema_version';`);
    raw.close();

    const memory = createSqliteMemory({ path, logger: () => {} });
    closers.push(() => memory.close());
    expect((await memory.get("lake"))?.content).toBe("We drove to the lake");
    await memory.store({ key: "pizza", content: "Then we had pizza", sessionId: "s1" });
    await memory.forget("lake");

    const check = new Database(path, { readonly: true });
    closers.push(() => check.close());
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(
      String(SCHEMA_VERSION),
    );
    const docOf = (key: string) =>
      check.prepare("SELECT doc_id FROM memories WHERE key = ?").pluck().get(key) as number;
    const logged = check
      .prepare(
        "SELECT doc_id, old_session_id, old_namespace, old_search_terms FROM memory_changes ORDER BY seq",
      )
      .raw(true)
      .all();
    // The new entry's insert (nothing before), then the forgotten one's delete (doc id 1) with
    // what it held.
    expect(logged).toEqual([
      [docOf("pizza"), null, null, null],
      [1, "s1", "default", "lake we drove to the lake"],
    ]);
  });

  it("logs at most 8,192 characters of a row's terms (null past them)", async () => {
    const path = tempDbPath();
    const memory = createSqliteMemory({ path, logger: () => {} });
    closers.push(() => memory.close());
    await memory.store({ key: "short", content: "a short note" });
    await memory.store({ key: "long", content: "word ".repeat(2000) });
    await memory.forget("short");
    await memory.forget("long");
    const raw = new Database(path, { readonly: true });
    closers.push(() => raw.close());
    const logged = raw
      .prepare(
        "SELECT old_search_terms FROM memory_changes WHERE old_namespace IS NOT NULL ORDER BY seq",
      )
      .pluck()
      .all();
    expect(logged).toEqual(["short a short note", null]);
  });

  it("keeps the newest 1,024 changes", async () => {
    const path = tempDbPath();
    const memory = createSqliteMemory({ path, logger: () => {} });
    closers.push(() => memory.close());
    await memory.store({ key: "counter", content: "a counter" });
    const raw = new Database(path);
    closers.push(() => raw.close());
    const touch = raw.prepare("UPDATE memories SET importance = ? WHERE key = 'counter'");
    raw.transaction(() => {
      for (let index = 0; index < 1500; index++) touch.run((index % 10) / 10);
    })();
    const [count, oldest, newest] = raw
      .prepare("SELECT count(*), min(seq), max(seq) FROM memory_changes")
      .raw(true)
      .get() as number[];
    expect(count).toBe(1024);
    expect(newest! - oldest!).toBe(1023);
    expect(newest).toBe(1501);
  });
});
