/**
 * pnpm --filter @memory/sqlite bench:keyword-index -- EXPORT_DIR [--sizes 419,1000,2000,5000]
 *
 * What the in-memory keyword index (src/recall/keyword-index.ts) costs and saves, per file size:
 * building it (cold: a new process's first build; warm: the median of 10 more), the heap it
 * holds, and ranking a question's best 40 from it against FTS5's own statement for the same
 * terms (`ORDER BY bm25(memories_fts), rowid LIMIT 40`), interleaved question by question. The
 * store holds LoCoMo turns (the kit's export: `node /work/shared/eval/locomo/locomo.mjs --export
 * EXPORT_DIR --out /tmp/locomo-x`), repeated as further sessions past the export's size; the
 * questions are conv-26's, analyzed and selected as recall selects them. Run with
 * `NODE_OPTIONS=--expose-gc` for the heap figure. Not a test: nothing is asserted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { analyzeQuery, searchTerms, selectingTerms } from "@memory/core";
import Database from "better-sqlite3";
import { createSqliteMemory } from "../src/index.js";
import { KeywordIndex } from "../src/recall/keyword-index.js";
import { matchExpression } from "../src/recall/ranked-matches.js";
import { StatementCache } from "../src/statement-cache.js";

const args = process.argv.slice(2).filter((arg) => arg !== "--");
const exportDir = args[0];
if (!exportDir || exportDir.startsWith("--")) {
  process.stderr.write("usage: keyword-index.ts EXPORT_DIR [--sizes 419,1000,2000,5000]\n");
  process.exit(2);
}
const option = (name: string, fallback: string) =>
  args.includes(name) ? args[args.indexOf(name) + 1]! : fallback;
const sizes = option("--sizes", "419,1000,2000,5000").split(",").map(Number);
const POOL = 40;

interface Line {
  namespace: string;
  key: string;
  content: string;
  session_id: string;
  text: string;
}
const readJsonl = (file: string): Line[] =>
  fs
    .readFileSync(path.join(exportDir, file), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Line);
const turns = readJsonl("corpus.jsonl");
const questions = readJsonl("queries.jsonl")
  .filter((line) => line.namespace === "conv-26")
  .map((line) => searchTerms(analyzeQuery(line.text)))
  .filter((terms) => terms.length > 0 && !terms.some((term) => term.prefix));

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  return process.memoryUsage().heapUsed;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

for (const size of sizes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-keyword-index-"));
  const file = path.join(dir, "index.db");
  const memory = createSqliteMemory({ path: file, logger: () => {} });
  await memory.importEntries(
    Array.from({ length: size }, (_, index) => {
      const turn = turns[index % turns.length]!;
      const copy = Math.floor(index / turns.length);
      return {
        key: `${turn.key}#${copy}`,
        content: turn.content,
        namespace: "bench",
        sessionId: `${turn.session_id}#${copy}`,
      };
    }),
  );
  await memory.close();
  const db = new Database(file);
  const statements = new StatementCache(db);
  const vocabulary = db.prepare("SELECT doc FROM memories_fts_vocab WHERE term = ?").pluck();
  // The terms recall would select for each question (rarest first, see term-selection.ts).
  const selected = questions.map((terms) =>
    selectingTerms(
      terms,
      terms.map((term) => (vocabulary.get(term.text) as number | undefined) ?? 0),
      { pool: POOL },
    ),
  );
  const build = () => {
    const index = new KeywordIndex({ waitFor: () => 0 });
    const start = performance.now();
    index.best(statements, ["warm"], 1);
    return { index, ms: performance.now() - start };
  };
  // The heap four indexes hold, over four: one alone is within the collector's noise.
  const before = heap();
  const { index, ms: cold } = build();
  const kept = [index, build().index, build().index, build().index];
  const held = (heap() - before) / kept.length;
  const warm = median(Array.from({ length: 10 }, () => build().ms));
  const fts = db.prepare(
    `SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?
     ORDER BY bm25(memories_fts), rowid LIMIT ?`,
  );
  const indexTimes: number[] = [];
  const ftsTimes: number[] = [];
  for (let round = 0; round < 4; round++) {
    for (const terms of selected) {
      const phrases = terms.map((term) => term.text);
      let start = performance.now();
      index.best(statements, phrases, POOL);
      const indexMs = performance.now() - start;
      start = performance.now();
      fts.all(matchExpression(terms), POOL);
      const ftsMs = performance.now() - start;
      if (round > 0) {
        indexTimes.push(indexMs);
        ftsTimes.push(ftsMs);
      }
    }
  }
  console.log(
    JSON.stringify({
      entries: size,
      buildColdMs: Number(cold.toFixed(1)),
      buildWarmMs: Number(warm.toFixed(1)),
      heapMB: gc ? Number((held / 1e6).toFixed(2)) : null,
      bestP50Us: Number((median(indexTimes) * 1000).toFixed(1)),
      ftsP50Us: Number((median(ftsTimes) * 1000).toFixed(1)),
      questions: selected.length,
    }),
  );
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
