import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { filterSql } from "../src/filter-sql.js";
import { createSqliteMemory } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/migrations/schema.js";
import { tempDbPath } from "./helpers.js";

/** The plan's lines for a statement, as SQLite reports them. */
function plan(db: Database.Database, sql: string, ...params: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
    .map((row) => row.detail)
    .join("\n");
}

const newestOf = (categories: string[], more: { sessionId?: string; since?: string } = {}) => {
  const { where, params } = filterSql({
    namespace: "default",
    sessionId: more.sessionId,
    categories,
    since: more.since,
    until: undefined,
    includeSuperseded: true,
  });
  return {
    sql: `SELECT m.key FROM memories m WHERE ${where} ORDER BY m.updated_at DESC, m.doc_id DESC LIMIT 5`,
    params,
  };
};

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("schema v11: the newest entries of one category", () => {
  it("upgrades a v10 file on open, keeps its rows, and lists a category from its own index", async () => {
    const path = tempDbPath();
    const first = createSqliteMemory({ path, logger: () => {} });
    // Many newer entries of other categories in front of the few core facts.
    await first.store({ key: "fact-1", content: "The user lives in Lisbon", category: "core" });
    await first.store({ key: "fact-2", content: "The user drinks tea", category: "core" });
    for (let i = 0; i < 30; i++)
      await first.store({ key: `log-${i}`, content: `Daily log ${i}`, category: "daily" });
    await first.close();
    const raw = new Database(path);
    raw.exec(`DROP INDEX memories_category_updated;
      UPDATE meta SET value = '10' WHERE key = 'schema_version';`);
    raw.close();

    const memory = createSqliteMemory({ path, logger: () => {} });
    closers.push(() => memory.close());
    const core = await memory.list({ categories: ["core"] });
    expect(core.map((entry) => entry.key)).toEqual(["fact-2", "fact-1"]);
    expect((await memory.list({ categories: ["daily"], limit: 2 })).map((e) => e.key)).toEqual([
      "log-29",
      "log-28",
    ]);
    expect(await memory.count()).toBe(32);

    const check = new Database(path, { readonly: true });
    closers.push(() => check.close());
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    // One category: the index gives the order, no walk of the namespace, no sort.
    const single = newestOf(["core"]);
    const singlePlan = plan(check, single.sql, ...single.params);
    expect(singlePlan).toContain("INDEX memories_category_updated (namespace=? AND category=?)");
    expect(singlePlan).not.toContain("TEMP B-TREE");
    // The context's session history: one category, a session and a time window.
    const history = newestOf(["conversation"], { sessionId: "s1", since: "2026-01-01" });
    expect(plan(check, history.sql, ...history.params)).toContain("memories_category_updated");
    // Several categories still filter correctly (an IN list).
    const both = await memory.list({ categories: ["core", "daily"], limit: 40 });
    expect(both).toHaveLength(32);
  });
});
