import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/migrations/schema.js";
import { tempDbPath } from "./helpers.js";

/** The plan's lines for a statement, as SQLite reports them. */
function plan(db: Database.Database, sql: string, ...params: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
    .map((row) => row.detail)
    .join("\n");
}

describe("schema v8: recall filters answered from indexes", () => {
  it("upgrades a v7 file on open, keeps its rows, and a filtered recall finds the same entries", async () => {
    const path = tempDbPath();
    const first = createSqliteMemory({ path, logger: () => {} });
    await first.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    await first.store({ key: "log", content: "Edited the Neovim config today", category: "daily" });
    await first.close();
    // The file as v7 left it: no filter indexes.
    const raw = new Database(path);
    raw.exec(`DROP INDEX memories_filter_by_doc; DROP INDEX memories_category;
      UPDATE meta SET value = '7' WHERE key = 'schema_version';`);
    raw.close();

    const memory = createSqliteMemory({ path, logger: () => {} });
    const found = await memory.recall("neovim", { categories: ["daily"], mode: "bm25" });
    expect(found.map((entry) => entry.key)).toEqual(["log"]);
    expect(await memory.count()).toBe(2);
    await memory.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    // A category filter's exact scan reads the covering index, not the rows.
    expect(
      plan(
        check,
        `SELECT m.doc_id, m.content_hash FROM memories m WHERE m.namespace = ?
         AND m.category IN (SELECT value FROM json_each(?)) AND m.superseded_by IS NULL`,
        "default",
        '["core"]',
      ),
    ).toContain("COVERING INDEX memories_category");
    check.close();
  });
});
