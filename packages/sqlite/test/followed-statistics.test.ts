import type { Memory, NormalizedFilter } from "@memory/api";
import { analyzeQuery, searchTerms } from "@memory/core";
import { recallFilter, seededRandom } from "@memory/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import type { Opened } from "../src/opened-store.js";
import { SqliteRecallStages } from "../src/recall/sqlite-recall-stages.js";
import { StatementCache } from "../src/statement-cache.js";
import { countingStatements, tempDbPath } from "./helpers.js";

// Keyword statistics follow the change log (followed-statistics.ts): after any mix of writes,
// what a long-lived reader holds equals what a new reader counts.
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const WORDS = ["lake", "pizza", "hiking", "camping", "painting", "dog", "lakes", "paint", "trip"];
const QUERIES = ["lake trip", "painting dogs", "camping pizza hike", "paint* lake"];

function stagesOn(path: string): { stages: SqliteRecallStages; lookups: () => number } {
  const db = new Database(path);
  closers.push(() => db.close());
  // The real cache, with each frequency count counted.
  const { cache, count } = countingStatements(
    new StatementCache(db),
    (sql) => sql.includes("memories_fts_vocab") || sql.includes("count(*) AS n"),
  );
  const stages = new SqliteRecallStages(() => ({ statements: cache }) as unknown as Opened);
  return { stages, lookups: count };
}

const statisticsOf = async (stages: SqliteRecallStages, namespace: string, query: string) => {
  const filter = recallFilter({ namespace }) as NormalizedFilter & { namespace: string };
  const terms = searchTerms(analyzeQuery(query));
  return (await stages.keyword({ terms, filter, pool: 10 })).statistics;
};

async function write(memory: Memory, next: () => number, step: number, path: string) {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const namespace = pick(["a", "b"]);
  const key = `k${Math.floor(next() * 12)}`;
  const text = () =>
    Array.from({ length: 2 + Math.floor(next() * 5) }, () => pick(WORDS)).join(" ");
  const kind = next();
  if (kind < 0.4) await memory.store({ key, content: text(), namespace, sessionId: "s" });
  else if (kind < 0.45) {
    // Terms past what the log keeps of a row (8,192 characters): that namespace counts again.
    const long = Array.from({ length: 3000 }, () => pick(WORDS)).join(" ");
    await memory.store({ key, content: long, namespace, sessionId: "s" });
  } else if (kind < 0.6) await memory.forget(key, { namespace }).catch(() => undefined);
  else if (kind < 0.75) await memory.pin(key, { namespace }).catch(() => undefined);
  else if (kind < 0.85) {
    // A row moved to the other namespace (no API does it; the triggers must still see it).
    const raw = new Database(path);
    raw.function("memory_bulk_loading", (_docId: unknown) => 0);
    raw
      .prepare("UPDATE OR IGNORE memories SET namespace = ? WHERE key = ? AND namespace = ?")
      .run(namespace === "a" ? "b" : "a", key, namespace);
    raw.close();
  } else if (kind < 0.97) await memory.store({ key: `new-${step}`, content: text(), namespace });
  else
    await memory.importEntries(
      Array.from({ length: 16 }, (_, index) => ({
        key: `bulk-${step}-${index}`,
        content: text(),
        namespace,
      })),
    );
}

describe("sqlite: keyword statistics follow the change log", () => {
  it("equal a fresh count after every few writes, 150 times (long entries too) (stores, rewrites, forgets, pins, moves, imports)", async () => {
    const path = tempDbPath();
    const memory = createSqliteMemory({ path, logger: () => {} });
    closers.push(() => memory.close());
    await memory.store({ key: "seed", content: "lake pizza", namespace: "a" });
    await memory.store({ key: "seed", content: "dog trip", namespace: "b" });
    const followed = stagesOn(path);
    const next = seededRandom(29);
    let fresh = 0;
    for (let step = 0; step < 150; step++) {
      // One to three writes between reads: a row may change more than once in between.
      const writes = 1 + Math.floor(next() * 3);
      for (let index = 0; index < writes; index++)
        await write(memory, next, step * 3 + index, path);
      const recount = stagesOn(path);
      for (const namespace of ["a", "b"])
        for (const query of QUERIES) {
          const kept = await statisticsOf(followed.stages, namespace, query);
          expect(kept).toEqual(await statisticsOf(recount.stages, namespace, query));
        }
      fresh += recount.lookups();
    }
    // Not vacuous: the long-lived reader counted far less than new readers did.
    expect(followed.lookups()).toBeLessThan(fresh / 4);
  });
});
