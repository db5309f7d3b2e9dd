import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/migrations/schema.js";
import { tempDbPath } from "./helpers.js";

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

// The cleanup trigger as schema v10 wrote it.
const V10_CLEANUP = `CREATE TRIGGER memories_usage_cleanup AFTER DELETE ON memories BEGIN
  DELETE FROM usage_events WHERE namespace = old.namespace AND key = old.key;
  DELETE FROM usage_records WHERE namespace = old.namespace AND key = old.key;
END;`;

describe("schema v12: surfaced events in one row per recall", () => {
  it("upgrades a v11 file whose recalls wrote a row per result, and answers feedback on them", async () => {
    const path = tempDbPath();
    const first = createSqliteMemory({ path, logger: () => {} });
    await first.store({ key: "coffee", content: "The user drinks coffee every morning" });
    await first.store({ key: "tea", content: "The user drinks green tea in the evening" });
    await first.close();
    // A v11 store: a recall's events as rows of usage_events, its records already counted.
    const raw = new Database(path);
    raw.exec(`DROP TRIGGER memories_usage_cleanup; ${V10_CLEANUP}
      DROP TABLE usage_surfaced; DROP TABLE usage_forgotten;
      DELETE FROM meta WHERE key = 'usage_folded_seq';
      UPDATE meta SET value = '11' WHERE key = 'schema_version';`);
    const insert =
      raw.prepare(`INSERT INTO usage_events (recall_id, namespace, key, kind, at, query, source)
      VALUES ('old-recall', 'default', ?, 'surfaced', '2026-03-01T12:00:00.000Z', NULL, 'recall')`);
    for (const key of ["coffee", "tea"]) insert.run(key);
    raw.exec(`INSERT INTO usage_records (namespace, key, surfaced, used, ignored, queries, days,
        last_surfaced_at, last_used_at, last_used_day, recent_queries)
      SELECT 'default', key, 1, 0, 0, 0, 0, '2026-03-01T12:00:00.000Z', NULL, NULL, '[]'
      FROM memories`);
    raw.close();

    const memory = createSqliteMemory({ path, logger: () => {} });
    closers.push(() => memory.close());
    await memory.feedback({ recallId: "old-recall", used: ["coffee"], ignored: ["tea"] });
    const recalled = await memory.recall("what does the user drink", { minScore: 0 });
    expect(recalled.recallId).toBeDefined();
    const report = await memory.usage({ keys: ["coffee", "tea"] });
    expect(
      report.entries.map((entry) => [entry.key, entry.stats.surfaced, entry.stats.used]),
    ).toEqual([
      ["coffee", 2, 1],
      ["tea", 2, 0],
    ]);
    // Forgetting still removes the old rows and the new one's key.
    await memory.forget("tea");
    await expect(memory.feedback({ recallId: recalled.recallId!, used: ["tea"] })).rejects.toThrow(
      /Not a result of recall/,
    );

    const check = new Database(path, { readonly: true });
    closers.push(() => check.close());
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(
      String(SCHEMA_VERSION),
    );
    expect(check.prepare("SELECT count(*) FROM usage_surfaced").pluck().get()).toBe(1);
    expect(check.prepare("SELECT count(*) FROM usage_events WHERE key = 'tea'").pluck().get()).toBe(
      0,
    );
  });
});
