import { createTestEmbedder } from "@memory/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { StatementCache } from "../src/statement-cache.js";
import { tempDir } from "./helpers.js";

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function database(file: string): Database.Database {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  open.push(db);
  return db;
}

describe("recall stages read in one transaction (StatementCache.snapshot)", () => {
  it("holds one snapshot for the whole read, and none after it, even when the read fails", () => {
    const file = `${tempDir()}/snapshot.db`;
    const db = database(file);
    db.exec("CREATE TABLE t (n INTEGER)");
    const other = database(file);
    const statements = new StatementCache(db);
    const count = () => statements.get("SELECT count(*) FROM t").pluck().get() as number;
    const seen = statements.snapshot(() => {
      const before = count();
      // Another connection commits between the two reads: the snapshot does not see it.
      other.prepare("INSERT INTO t VALUES (1)").run();
      return [before, count(), db.inTransaction];
    });
    expect(seen).toEqual([0, 0, true]);
    expect(db.inTransaction).toBe(false);
    expect(count()).toBe(1);
    expect(() =>
      statements.snapshot(() => statements.get("SELECT no_such_column FROM t").all()),
    ).toThrow(/no_such_column/);
    expect(db.inTransaction).toBe(false);
    // Inside a caller's transaction it joins it and leaves it open.
    db.exec("BEGIN");
    expect(statements.snapshot(() => count())).toBe(1);
    expect(db.inTransaction).toBe(true);
    db.exec("COMMIT");
  });

  it("leaves no transaction open after keyword, hybrid and neighbour stages, so writes commit", async () => {
    const db = database(`${tempDir()}/recall.db`);
    const memory = createSqliteMemory({ database: db, embedder: createTestEmbedder() });
    const session = { sessionId: "s1", namespace: "n" };
    await memory.store({ key: "a", content: "We drove to the lake on Sunday", ...session });
    await memory.store({ key: "b", content: "The lake water was cold", ...session });
    await memory.store({ key: "c", content: "Then we had pizza in town", ...session });
    for (const mode of ["bm25", "hybrid", "embedding"] as const) {
      const results = await memory.recall("lake trip", { namespace: "n", mode, minScore: 0 });
      expect(results.length).toBeGreaterThan(0);
      expect(db.inTransaction).toBe(false);
    }
    await memory.store({ key: "d", content: "The lake was frozen in winter", ...session });
    expect(db.inTransaction).toBe(false);
    const keys = (await memory.recall("frozen lake", { namespace: "n", mode: "bm25" })).map(
      (entry) => entry.key,
    );
    expect(keys).toContain("d");
    await memory.close();
  });
});
