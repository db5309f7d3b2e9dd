import type { Memory, NormalizedFilter, RecallOptions } from "@memory/api";
import { createTestEmbedder, recallFilter } from "@memory/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { RecallRows } from "../src/recall/recall-rows.js";
import { SEARCH_COLUMNS, type SearchRow, searchRows } from "../src/recall/search-row.js";
import { StatementCache } from "../src/statement-cache.js";
import { tempDbPath } from "./helpers.js";

// Recall keeps the rows it read, across writes that did not touch them (recall-rows.ts).
// These recalls run with the hot result cache off, so every answer comes from the stages.
const opened: Memory[] = [];
const databases: Database.Database[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
  for (const db of databases.splice(0)) db.close();
});

function open(path: string): Memory {
  const memory = createSqliteMemory({
    path,
    recallCacheSize: 0,
    embedder: createTestEmbedder(),
    logger: () => {},
  });
  opened.push(memory);
  return memory;
}

const session = { namespace: "chat", sessionId: "s1" };

async function conversation(memory: Memory): Promise<void> {
  await memory.store({ key: "t1", content: "We drove to the lake on Sunday", ...session });
  await memory.store({ key: "t2", content: "The lake water was cold", ...session });
  await memory.store({ key: "t3", content: "Then we had pizza in town", ...session });
  await memory.store({ key: "t4", content: "Pizza by the lake sounds nice", namespace: "chat" });
}

const byKey = async (memory: Memory, query: string, options: RecallOptions) =>
  new Map((await memory.recall(query, options)).map((entry) => [entry.key, entry]));

describe("sqlite: rows kept between recalls", () => {
  it("hand out decision records (conflict and supersession) as each recall's own copies", async () => {
    const memory = open(tempDbPath());
    await memory.store({ key: "home", content: "The user lives in Berlin", namespace: "chat" });
    await memory.store({
      key: "move",
      content: "The user moved to Paris last year",
      namespace: "chat",
    });
    const options: RecallOptions = { namespace: "chat", mode: "bm25", minScore: 0 };
    const stored = await memory.get("move", { namespace: "chat" });
    expect(stored?.conflictRecord?.superseded).toEqual(["home"]);
    const [first] = await memory.recall("where does the user live, Paris", options);
    expect(first?.key).toBe("move");
    expect(first!.conflictRecord).toEqual(stored!.conflictRecord);
    expect(Object.keys(first!)).toContain("conflictRecord");
    expect(JSON.parse(JSON.stringify(first)).conflictRecord).toEqual(stored!.conflictRecord);
    expect(structuredClone(first)!.conflictRecord).toEqual(stored!.conflictRecord);
    // A caller's change stays in its own result.
    first!.conflictRecord!.superseded.push("changed by the caller");
    const [again] = await memory.recall("where does the user live, Paris", options);
    expect(again!.conflictRecord).toEqual(stored!.conflictRecord);
    first!.conflictRecord = undefined;
    expect(first!.conflictRecord).toBeUndefined();
    // A superseded entry's record, asked for with includeSuperseded.
    const old = (await memory.recall("Berlin", { ...options, includeSuperseded: true })).find(
      (entry) => entry.key === "home",
    );
    expect(old?.supersessionRecord).toMatchObject({ by: "move", decidedBy: "rules" });
    expect(old?.supersessionRecord).toEqual(
      (await memory.get("home", { namespace: "chat" }))?.supersessionRecord,
    );
  });

  for (const mode of ["bm25", "hybrid"] as const) {
    const options: RecallOptions = { namespace: "chat", mode, minScore: 0, track: false };

    it(`never answer after a write of another connection or this one (${mode})`, async () => {
      const path = tempDbPath();
      const reader = open(path);
      const writer = open(path);
      await conversation(writer);
      const first = await byKey(reader, "lake water", options);
      expect(first.get("t2")?.content).toBe("The lake water was cold");
      // Another connection rewrites a candidate and pins another one.
      await writer.store({ key: "t2", content: "The lake water was freezing", ...session });
      await writer.pin("t1", { namespace: "chat" });
      const second = await byKey(reader, "lake water", options);
      expect(second.get("t2")?.content).toBe("The lake water was freezing");
      expect(second.get("t1")?.pinned).toBe(true);
      // This connection's own write, then a delete by the other.
      await reader.store({ key: "t2", content: "The lake water was warm", ...session });
      expect((await byKey(reader, "lake water", options)).get("t2")?.content).toBe(
        "The lake water was warm",
      );
      await writer.forget("t1", { namespace: "chat" });
      expect((await byKey(reader, "lake water", options)).has("t1")).toBe(false);
    });

    it(`answer each filter with its own rows (${mode})`, async () => {
      const memory = open(tempDbPath());
      await conversation(memory);
      const all = await byKey(memory, "lake pizza", options);
      expect(all.has("t4")).toBe(true);
      const inSession = await byKey(memory, "lake pizza", { ...options, sessionId: "s1" });
      expect(inSession.size).toBeGreaterThan(0);
      expect(inSession.has("t4")).toBe(false);
      // And the first filter again, after the second replaced the kept rows.
      expect([...(await byKey(memory, "lake pizza", options)).keys()].sort()).toEqual(
        [...all.keys()].sort(),
      );
    });
  }

  it("hands every recall its own entries: changing a result changes no later one", async () => {
    const memory = open(tempDbPath());
    await conversation(memory);
    const options: RecallOptions = { namespace: "chat", mode: "bm25", minScore: 0 };
    const [first] = await memory.recall("lake water", options);
    expect(first).toBeDefined();
    first!.content = "changed by the caller";
    const [again] = await memory.recall("lake water", options);
    expect(again?.key).toBe(first!.key);
    expect(again?.content).not.toBe("changed by the caller");
  });
});

/** A second connection on the file, with the kept rows of one filter and what each read loaded. */
function keptRowsOn(path: string) {
  const db = new Database(path);
  databases.push(db);
  const statements = new StatementCache(db);
  const filter = recallFilter({ namespace: "chat" });
  const kept = new RecallRows();
  const loads: number[][] = [];
  const load = (missing: number[]): SearchRow[] => {
    loads.push([...missing].sort((a, b) => a - b));
    return searchRows(
      statements.get(
        `SELECT ${SEARCH_COLUMNS} FROM json_each(?) AS wanted
         CROSS JOIN memories m ON m.doc_id = wanted.value`,
      ),
      JSON.stringify(missing),
    );
  };
  const docIds = () =>
    db
      .prepare("SELECT doc_id FROM memories WHERE namespace = 'chat' ORDER BY doc_id")
      .pluck()
      .all() as number[];
  /** Reads `docs` (all of the namespace's by default) through the cache; the rows' contents. */
  const readUnder =
    (under: NormalizedFilter) =>
    (docs = docIds()) =>
      statements.snapshot(() =>
        kept
          .at(statements, statements.writeVersion(), under)
          .read(docs, load)
          .map((row) => row[4]),
      );
  const read = readUnder(filter);
  /** `read` under another filter (the namespace's core entries, as a store's conflict check asks). */
  const readCore = readUnder(recallFilter({ namespace: "chat", categories: ["core"] }));
  const docOf = (key: string) =>
    db.prepare("SELECT doc_id FROM memories WHERE key = ?").pluck().get(key) as number;
  return { db, statements, filter, kept, loads, read, readCore, docIds, docOf };
}

async function turns(
  memory: Memory,
  count: number,
  sessionOf = (index: number) => `s${index % 3}`,
) {
  for (let index = 0; index < count; index++)
    await memory.store({
      key: `turn-${index}`,
      content: `turn ${index} about the lake`,
      namespace: "chat",
      sessionId: sessionOf(index),
    });
}

/** A store of `count` turns, a writer on it and a reader with kept rows. */
async function conversationOf(count: number) {
  const path = tempDbPath();
  const memory = open(path);
  await turns(memory, count);
  const reader = keptRowsOn(path);
  return { path, memory, reader, all: reader.docIds() };
}

describe("sqlite: kept rows follow the change log (schema v13)", () => {
  it("read again only the rows a write touched, whichever connection wrote", async () => {
    const { memory, reader, all } = await conversationOf(12);
    reader.read();
    expect(reader.loads).toEqual([all]);
    const [rewritten, pinned] = [reader.docOf("turn-4"), reader.docOf("turn-7")];
    await memory.store({
      key: "turn-4",
      content: "turn 4 was rewritten",
      namespace: "chat",
      sessionId: "s1",
    });
    await memory.pin("turn-7", { namespace: "chat" });
    // The rewrite keeps the old text as a version of its own (a new doc id, never read before).
    const added = reader.docIds().filter((doc) => !all.includes(doc));
    expect(added).toHaveLength(1);
    const contents = reader.read();
    expect(reader.loads.slice(1)).toEqual([[rewritten, pinned, ...added].sort((a, b) => a - b)]);
    expect(contents).toContain("turn 4 was rewritten");
    // Nothing written since: nothing read.
    reader.read();
    expect(reader.loads).toHaveLength(2);
  });

  it("keep the rows of each of a few filters used in turn (a store's conflict check has its own)", async () => {
    const { memory, reader, all } = await conversationOf(8);
    reader.read();
    reader.readCore();
    expect(reader.loads).toEqual([all, all]);
    const pinned = reader.docOf("turn-2");
    await memory.pin("turn-2", { namespace: "chat" });
    reader.read();
    reader.readCore();
    reader.read();
    expect(reader.loads.slice(2)).toEqual([[pinned], [pinned]]);
  });

  it("read a reused doc id again: a deleted last row, then a new entry", async () => {
    const { memory, reader } = await conversationOf(5);
    const last = reader.docOf("turn-4");
    expect(reader.read([last])).toEqual(["turn 4 about the lake"]);
    await memory.forget("turn-4", { namespace: "chat" });
    await memory.store({ key: "new", content: "a new entry in the old place", namespace: "chat" });
    expect(reader.docOf("new")).toBe(last);
    expect(reader.read([last])).toEqual(["a new entry in the old place"]);
  });

  it("start over past 256 changes, and for rows read in a caller's transaction", async () => {
    const { path, reader, all } = await conversationOf(6);
    reader.read();
    const other = new Database(path);
    databases.push(other);
    const touch = other.prepare("UPDATE memories SET importance = ? WHERE key = 'turn-0'");
    other.transaction(() => {
      for (let index = 0; index < 257; index++) touch.run((index % 10) / 10);
    })();
    reader.read();
    expect(reader.loads).toEqual([all, all]);
    // Read inside a transaction the caller opened (and rolls back): nothing of it is kept.
    reader.db.transaction(() => reader.read())();
    reader.read();
    expect(reader.loads).toEqual([all, all, all, all]);
  });

  it("drop the neighbours of a session a write added to, and everything after a bulk import", async () => {
    const { path, memory, reader } = await conversationOf(6);
    const anchor = (key: string, session: string | null) => ({
      docs: [null, null] as const,
      docId: reader.docOf(key),
      session,
    });
    const keep = () =>
      reader.statements.snapshot(() =>
        reader.kept
          .at(reader.statements, reader.statements.writeVersion(), reader.filter)
          .keepNeighbors(
            new Map([
              ["a0", anchor("turn-0", "s0")],
              ["a1", anchor("turn-1", "s1")],
              ["a2", anchor("turn-2", null)],
            ]),
          ),
      );
    const keptNow = () =>
      reader.statements.snapshot(() => {
        const kept = reader.kept.at(
          reader.statements,
          reader.statements.writeVersion(),
          reader.filter,
        );
        return ["a0", "a1", "a2"].filter((id) => kept.neighbors(id) !== undefined);
      });
    keep();
    await memory.store({ key: "late", content: "a late turn", namespace: "chat", sessionId: "s1" });
    expect(keptNow()).toEqual(["a0", "a2"]);
    // A change to an anchor without a session (it gets one) drops its own links.
    const other = new Database(path);
    databases.push(other);
    other.prepare("UPDATE memories SET session_id = 's9' WHERE key = 'turn-2'").run();
    expect(keptNow()).toEqual(["a0"]);
    // Rows imported in one batch (16 or more) skip the row triggers: one log row says so.
    keep();
    const report = await memory.importEntries(
      Array.from({ length: 20 }, (_, index) => ({
        key: `imported-${index}`,
        content: `imported turn ${index}`,
        namespace: "chat",
        sessionId: "s7",
      })),
    );
    expect(report.imported).toBe(20);
    expect(keptNow()).toEqual([]);
  });
});
