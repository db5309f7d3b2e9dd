#!/usr/bin/env node
// One side of the instruction-count comparison (recall-instructions.sh): builds the conv-26
// store from the LoCoMo kit's export when asked, or runs N keyword recalls (usage tracking on or
// off) or N bare FTS5 queries over it, questions in turn. Run under `valgrind --tool=callgrind`
// by the script: instructions, unlike seconds, do not move with what else the machine runs.
//
//   node recall-instructions.mjs build EXPORT_DIR STORE_FILE
//   node recall-instructions.mjs run EXPORT_DIR STORE_FILE on|off|bare COUNT
import fs from "node:fs";
import path from "node:path";
import { analyzeQuery, searchTerms } from "@memory/core";
import { createSqliteMemory } from "@memory/sqlite";
import Database from "better-sqlite3";
import { BARE_QUERY, turnEntry } from "./locomo-turns.mjs";

const [command, exportDir, file, side, count] = process.argv.slice(2);
const namespace = "conv-26";
const readJsonl = (name) =>
  fs
    .readFileSync(path.join(exportDir, name), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line))
    .filter((line) => line.namespace === namespace);

if (command === "build") {
  const memory = createSqliteMemory({ path: file, logger: () => {} });
  const report = await memory.importEntries(
    readJsonl("corpus.jsonl").map((line) => turnEntry(line, namespace)),
  );
  await memory.close();
  console.log(`built ${file}: ${report.imported} entries`);
} else if (command === "run") {
  // The same questions and MATCH text as small-store.mjs.
  const matchOf = (query) =>
    searchTerms(analyzeQuery(query))
      .map((term) => `"${term.text}"`)
      .join(" OR ");
  const queries = readJsonl("queries.jsonl")
    .filter((line) => matchOf(line.text) !== "")
    .map((line) => ({ text: line.text, match: matchOf(line.text) }));
  const n = Number(count);
  // Each operation ends with a turn of the event loop, as a server's request does (its reply
  // is written to a socket): a recall's usage is then written in a transaction of its own, as
  // when an agent recalls once a turn. BENCH_YIELD=0 runs them back to back, and every usage
  // event is written in one transaction at close (what the figures before 2026-11-28 measured).
  const yieldEach = process.env.BENCH_YIELD !== "0";
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  if (side === "bare") {
    const db = new Database(file, { readonly: true });
    const bare = db.prepare(BARE_QUERY);
    for (let i = 0; i < n; i++) {
      bare.all(queries[i % queries.length].match, namespace);
      if (yieldEach) await turn();
    }
    db.close();
  } else {
    const memory = createSqliteMemory({
      path: file,
      recallCacheSize: 0,
      usageTracking: side === "on",
      logger: () => {},
    });
    const options = { namespace, mode: "bm25", limit: 10, minScore: 0 };
    for (let i = 0; i < n; i++) {
      await memory.recall(queries[i % queries.length].text, options);
      if (yieldEach) await turn();
    }
    await memory.close();
  }
} else {
  console.error(
    "usage: recall-instructions.mjs build|run EXPORT_DIR STORE_FILE [on|off|bare COUNT]",
  );
  process.exit(2);
}
