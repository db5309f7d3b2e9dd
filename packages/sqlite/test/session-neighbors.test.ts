import type { NormalizedFilter } from "@memory/api";
import { recallFilter } from "@memory/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { RecallRows } from "../src/recall/recall-rows.js";
import { sessionNeighbors } from "../src/recall/session-neighbors.js";
import { StatementCache } from "../src/statement-cache.js";
import { tempDbPath } from "./helpers.js";

type Filter = NormalizedFilter & { namespace: string };
/** A normalized filter: the namespace, superseded entries left out, nothing else narrowed. */
const filterOf = (namespace: string, narrower: Partial<NormalizedFilter> = {}): Filter =>
  recallFilter({ namespace, ...narrower });

const databases: Database.Database[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

interface Row {
  doc_id: number;
  id: string;
  session_id: string | null;
  created_at: string;
  superseded_by: string | null;
  category: string;
}

/**
 * Three sessions whose turns share creation times in runs (as imported conversations do),
 * written out of time order, with superseded turns and an entry without a session.
 */
async function store(): Promise<StatementCache> {
  const path = tempDbPath();
  const memory = createSqliteMemory({ path, logger: () => {} });
  const entries = [];
  for (let index = 0; index < 60; index++) {
    const session = index % 3;
    // Times repeat (runs of equal times) and go backwards every few writes.
    const minute = (Math.floor(index / 4) * 7) % 11;
    entries.push({
      key: `turn-${index}`,
      content: `turn ${index} of session ${session}`,
      namespace: "chat",
      ...(index % 17 === 16 ? {} : { sessionId: `s${session}` }),
      category: index % 5 === 0 ? "daily" : "core",
      createdAt: `2026-01-01T10:${String(minute).padStart(2, "0")}:00.000Z`,
      updatedAt: `2026-01-01T10:${String(minute).padStart(2, "0")}:00.000Z`,
    });
  }
  await memory.importEntries(entries);
  await memory.store({
    key: "elsewhere",
    content: "other namespace",
    namespace: "other",
    sessionId: "s0",
  });
  await memory.close();
  const db = new Database(path);
  databases.push(db);
  db.prepare(
    "UPDATE memories SET superseded_by = 'newer' WHERE key IN ('turn-9', 'turn-21', 'turn-22')",
  ).run();
  return new StatementCache(db);
}

/** The reference: each session's passing rows sorted by (created_at, doc_id), read off around each anchor. */
function expected(
  rows: readonly Row[],
  ids: readonly string[],
  pass: (row: Row) => boolean,
): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const id of ids) {
    const anchor = rows.find((row) => row.id === id)!;
    if (anchor.session_id === null) continue;
    const key = (row: Row) => [row.created_at, row.doc_id] as const;
    const before = (a: Row, b: Row) =>
      key(a)[0] < key(b)[0] || (key(a)[0] === key(b)[0] && key(a)[1] < key(b)[1]);
    const session = rows.filter(
      (row) => row.session_id === anchor.session_id && row.doc_id !== anchor.doc_id && pass(row),
    );
    const earlier = session.filter((row) => before(row, anchor));
    const later = session.filter((row) => before(anchor, row));
    const last = earlier.sort((a, b) => (before(a, b) ? -1 : 1)).at(-1);
    const next = later.sort((a, b) => (before(a, b) ? -1 : 1))[0];
    const found = [last, next].filter((row) => row !== undefined).map((row) => row.id);
    if (found.length > 0) result.set(id, found);
  }
  return result;
}

describe("sqlite: session neighbours", () => {
  it("are the entries just before and after each anchor by time, then write order, among those passing the filter", async () => {
    const statements = await store();
    const rows = statements.db
      .prepare(
        "SELECT doc_id, id, session_id, created_at, superseded_by, category FROM memories WHERE namespace = 'chat'",
      )
      .all() as Row[];
    const ids = rows.map((row) => row.id);
    const cases: [Filter, (row: Row) => boolean][] = [
      [filterOf("chat"), (row) => row.superseded_by === null],
      [filterOf("chat", { includeSuperseded: true }), () => true],
      [
        filterOf("chat", { categories: ["core"] }),
        (row) => row.superseded_by === null && row.category === "core",
      ],
    ];
    let pairs = 0;
    // One cache for every case and both rounds: what one filter kept must not answer another.
    const kept = new RecallRows();
    for (const round of [1, 2]) {
      for (const [filter, pass] of cases) {
        const { neighbors } = sessionNeighbors(
          statements,
          ids,
          filter,
          kept.at(statements, "1", filter),
        );
        const found = new Map(
          [...neighbors].map(([id, hits]) => [id, hits.map((hit) => hit.entry.id)]),
        );
        const want = expected(rows, ids, pass);
        expect(found).toEqual(want);
        if (round === 1) pairs += [...want.values()].flat().length;
      }
    }
    // Not vacuous: nearly every anchor has two neighbours in each case.
    expect(pairs).toBeGreaterThan(250);
  });

  it("answers again from the rows and neighbours it kept, and after a write looks again only where it wrote", async () => {
    const statements = await store();
    const run: string[] = [];
    const counting = Object.assign(Object.create(statements), {
      get: (sql: string) => {
        run.push(sql);
        return statements.get(sql);
      },
    }) as StatementCache;
    const filter = filterOf("chat");
    const idOf = (key: string) =>
      statements.db.prepare("SELECT id FROM memories WHERE key = ?").pluck().get(key) as string;
    // Sessions s0, s1, s0, s2 and none (turn-16).
    const ids = ["turn-3", "turn-4", "turn-30", "turn-41", "turn-16"].map(idOf);
    const kept = new RecallRows();
    const at = () => kept.at(statements, statements.writeVersion(), filter);
    const first = statements.snapshot(() => sessionNeighbors(counting, ids, filter, at()));
    expect(run.length).toBe(2);
    const again = statements.snapshot(() => sessionNeighbors(counting, ids, filter, at()));
    expect(again.neighbors).toEqual(first.neighbors);
    expect(run.length).toBe(2);
    // Every neighbour is a hit each time (cosines() needs them), not only the rows read.
    const wanted = new Set([...first.neighbors.values()].flat().map((hit) => hit.entry.id));
    expect(new Set(again.hits.map((hit) => hit.indexed.entry.id))).toEqual(wanted);
    expect(wanted.size).toBeGreaterThan(6);

    // Another connection supersedes turn-7 (session s1): the version moves, and only the anchor
    // in s1 looks again; the others' links and every kept row stay.
    const other = new Database(statements.db.name);
    databases.push(other);
    other.prepare("UPDATE memories SET superseded_by = 'newer' WHERE key = 'turn-7'").run();
    statements.snapshot(() => at());
    expect(ids.map((id) => kept.neighbors(id) !== undefined)).toEqual([
      true,
      false,
      true,
      true,
      true,
    ]);
    run.length = 0;
    const later = statements.snapshot(() => sessionNeighbors(counting, ids, filter, at()));
    const rows = statements.db
      .prepare(
        "SELECT doc_id, id, session_id, created_at, superseded_by, category FROM memories WHERE namespace = 'chat'",
      )
      .all() as Row[];
    const pass = (row: Row) => row.superseded_by === null && row.session_id !== null;
    expect(
      new Map([...later.neighbors].map(([id, hits]) => [id, hits.map((hit) => hit.entry.id)])),
    ).toEqual(expected(rows, ids, pass));
    // The neighbours' statement; rows only if turn-4's new neighbour was not kept.
    expect(run.filter((sql) => sql.includes("WITH anchors"))).toHaveLength(1);
  });
});
