import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { FtsUpkeep, WRITES_PER_MERGE } from "../src/fts-upkeep.js";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const WORDS = ["lake", "pizza", "hiking", "camping", "painting", "dog", "river", "coffee"];
const text = (index: number) =>
  Array.from(
    { length: 15 },
    (_, word) => `${WORDS[(index + word * 3) % WORDS.length]}${(index + word * 7) % 8}`,
  ).join(" ");

/**
 * The number of segments in the FTS5 index: the structure record (`memories_fts_data` row 10)
 * starts with a 4-byte cookie, then the level and segment counts as SQLite varints.
 */
function segments(db: Database.Database): number {
  const structure = db
    .prepare("SELECT block FROM memories_fts_data WHERE id = 10")
    .pluck()
    .get() as Buffer;
  let at = 4;
  const varint = () => {
    let value = 0;
    for (let byte = 0; byte < 8; byte++) {
      const next = structure[at++]!;
      value = value * 128 + (next & 0x7f);
      if (next < 0x80) return value;
    }
    return value * 256 + structure[at++]!;
  };
  varint(); // levels
  return varint();
}

/** The FTS5 index's segments after an agent's store-and-forget loop. */
async function segmentsAfterLoop(): Promise<number> {
  const path = tempDbPath();
  const memory = createSqliteMemory({ path, logger: () => {} });
  closers.push(() => memory.close());
  await memory.importEntries(
    Array.from({ length: 400 }, (_, index) => ({ key: `turn-${index}`, content: text(index) })),
  );
  for (let index = 0; index < 200; index++) {
    await memory.store({ key: `live-${index}`, content: text(index + 1000), sessionId: "live" });
    if (index > 0) await memory.forget(`live-${index - 1}`);
  }
  const db = new Database(path);
  closers.push(() => db.close());
  return segments(db);
}

describe("sqlite: the full-text index is merged as writes go (fts-upkeep.ts)", () => {
  it(`stays near one segment through 400 single writes (a merge step every ${WRITES_PER_MERGE})`, async () => {
    // FTS5 alone merges a level once it holds four segments: this loop leaves 8 (measured);
    // with a merge step every 32 writes, at most 4.
    expect(await segmentsAfterLoop()).toBeLessThanOrEqual(4);
  });

  it("never fails the write it rides with: a failing step is undone", () => {
    // A database without the index: every step fails (SQLITE_ERROR), the writes commit.
    const db = new Database(":memory:");
    closers.push(() => db.close());
    db.exec("CREATE TABLE notes (n INTEGER)");
    const upkeep = new FtsUpkeep();
    const insert = db.prepare("INSERT INTO notes VALUES (?)");
    for (let n = 0; n < WRITES_PER_MERGE * 2; n++)
      db.transaction(() => {
        insert.run(n);
        upkeep.afterWrite(db);
      }).immediate();
    expect(db.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(WRITES_PER_MERGE * 2);
    expect(db.inTransaction).toBe(false);
  });
});
