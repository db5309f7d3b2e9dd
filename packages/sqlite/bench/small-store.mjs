#!/usr/bin/env node
// Keyword recall on one small conversation store against the bare FTS5 query a hand-written app
// would run over the same rows (the "419-entry small store" of issues 22 and 29: LoCoMo conv-26,
// 419 turns). Reads the LoCoMo kit's exported inputs; run `pnpm exec turbo run build` first.
//
//   node /work/shared/eval/locomo/locomo.mjs --export /tmp/locomo-export --out /tmp/locomo-x
//   node packages/sqlite/bench/small-store.mjs /tmp/locomo-export [--namespace conv-26] [--rounds 5]
//   node packages/sqlite/bench/small-store.mjs /tmp/locomo-export --sizes 419,1000,10000
//
// `--sizes` measures one store per size in one run (issue 29: 400, 1k and 10k entries of
// conversational text): the namespace's own turns first, then the export's other conversations'
// turns, then the same turns again as further sessions (keys and session ids suffixed `#2`,
// `#3`, ...) until the size is reached, all in the one namespace whose questions are asked.
// Without it, the store holds the namespace's own turns only (419 for conv-26).
//
// `--write-every N` writes before every Nth recall (an agent loop stores a turn, then recalls):
// it pins or unpins the store's first entry, which moves the file's write version, so that
// recall reads its rows afresh instead of from those kept since the last write (recall-rows.ts),
// and changes no text, so the FTS5 index (and the bare query) stays as it was. Without it,
// nothing is written between recalls.
//
// `--via-store` builds the store with one `store()` per turn (each entry then carries its
// conflict decision record, as entries an agent stores do) instead of one import.
//
// `--store-every N` is the agent loop itself: before every Nth recall it stores a new turn (the
// text of a turn from outside the store, in a session of its own) and forgets the one it stored
// the time before, so the store keeps its size. New text changes the FTS5 index and the terms'
// document frequencies, for the bare query too. The stores' p50 and mean CPU time are reported
// as well (`storeP50`, `storeCpuMean`).
//
// Both sides run in one process on one file, interleaved query by query, so machine load hits
// them alike; the p50 ratio is the result (absolute numbers move with the machine). Not a test:
// nothing is asserted.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createSqliteMemory } from "@memory/sqlite";
import Database from "better-sqlite3";
import { BARE_QUERY, turnEntry } from "./locomo-turns.mjs";

// The analyzer moved from @memory/api to @memory/core with the facade (issue 22); the fallback
// lets this one file measure the commit before the facade too.
const { analyzeQuery, searchTerms } = await import("@memory/core").catch(
  () => import("@memory/api"),
);

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const exportDir = args[0];
if (!exportDir || exportDir.startsWith("--")) {
  process.stderr.write("usage: small-store.mjs EXPORT_DIR [--namespace conv-26] [--rounds 5]\n");
  process.exit(2);
}
const namespace = option("--namespace", "conv-26");
const rounds = Number(option("--rounds", "5"));
const sizes = option("--sizes", "").split(",").filter(Boolean).map(Number);
const writeEvery = Number(option("--write-every", "0"));
const storeEvery = Number(option("--store-every", "0"));
const viaStore = args.includes("--via-store");
const readJsonl = (file) =>
  fs
    .readFileSync(path.join(exportDir, file), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
const allTurns = readJsonl("corpus.jsonl");
const ownTurns = allTurns.filter((line) => line.namespace === namespace);
const turns = [...ownTurns, ...allTurns.filter((line) => line.namespace !== namespace)];
/** The first `size` turns of the namespace's, then the others', then repeated as new sessions. */
const corpusOf = (size) =>
  Array.from({ length: size }, (_, index) => {
    const line = turns[index % turns.length];
    const copy = Math.floor(index / turns.length);
    return copy === 0
      ? line
      : { ...line, key: `${line.key}#${copy + 1}`, session_id: `${line.session_id}#${copy + 1}` };
  });
const matchOf = (query) =>
  searchTerms(analyzeQuery(query))
    .map((term) => `"${term.text}"`)
    .join(" OR ");
// A question with no search term (only stop words) has no bare query to compare with.
const queries = readJsonl("queries.jsonl")
  .filter((line) => line.namespace === namespace && matchOf(line.text) !== "")
  .map((line) => ({ text: line.text, match: matchOf(line.text) }));

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function measure(corpus) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-small-store-"));
  const file = path.join(dir, "small.db");
  // No embedder and the hot cache off: every recall runs the keyword stage (queries repeat across
  // rounds, so a cache would answer all but the first round).
  const memory = createSqliteMemory({ path: file, recallCacheSize: 0, logger: () => {} });
  try {
    const entries = corpus.map((line) => turnEntry(line, namespace));
    // --via-store: one store() per turn, as an agent writes them (each entry then carries the
    // conflict check's decision record), instead of one import.
    let report;
    if (viaStore) {
      for (const entry of entries) await memory.store(entry);
      report = { imported: entries.length };
    } else report = await memory.importEntries(entries);
    if (report.imported !== corpus.length) {
      throw new Error(`imported ${report.imported} of ${corpus.length} entries`);
    }
    const db = new Database(file, { readonly: true });
    // The same analyzed terms, the same namespace, the entry rows of the top 10 (what recall returns).
    const bare = db.prepare(BARE_QUERY);
    const recallOptions = { namespace, mode: "bm25", limit: 10, minScore: 0 };
    const recallTimes = [];
    const bareTimes = [];
    // CPU time of the process as well (user + system, getrusage): on a loaded machine a query
    // waiting for a core inflates wall time, not CPU time.
    const recallCpu = [];
    const bareCpu = [];
    // --store-every: each store's time too (its conflict check reads the candidates' facts).
    const storeTimes = [];
    const storeCpu = [];
    const cpuMs = (since) => {
      const used = process.cpuUsage(since);
      return (used.user + used.system) / 1000;
    };
    // Round 0 warms the JIT, the statement caches and the page cache; it is not counted.
    let written = 0;
    let stored = 0;
    let live;
    // Turns from past the store's end: text the store does not hold.
    const newTurns = turns.slice(corpus.length % turns.length).concat(turns);
    for (let round = 0; round <= rounds; round++) {
      for (const { text, match } of queries) {
        if (writeEvery > 0 && written++ % writeEvery === 0) {
          const pin = written % 2 === 1 ? memory.pin : memory.unpin;
          await pin.call(memory, corpus[0].key, { namespace });
        }
        if (storeEvery > 0 && stored++ % storeEvery === 0) {
          if (live !== undefined) await memory.forget(live, { namespace });
          live = `live-${stored}`;
          const turn = newTurns[stored % newTurns.length];
          const cpu = process.cpuUsage();
          const start = performance.now();
          await memory.store({
            key: live,
            content: turn.content,
            namespace,
            sessionId: `live-${Math.floor(stored / 20)}`,
          });
          if (round > 0) {
            storeTimes.push(performance.now() - start);
            storeCpu.push(cpuMs(cpu));
          }
        }
        let cpu = process.cpuUsage();
        let start = performance.now();
        await memory.recall(text, recallOptions);
        const recallMs = performance.now() - start;
        const recallCpuMs = cpuMs(cpu);
        cpu = process.cpuUsage();
        start = performance.now();
        bare.all(match, namespace);
        const bareMs = performance.now() - start;
        const bareCpuMs = cpuMs(cpu);
        if (round > 0) {
          recallTimes.push(recallMs);
          bareTimes.push(bareMs);
          recallCpu.push(recallCpuMs);
          bareCpu.push(bareCpuMs);
        }
      }
    }
    db.close();
    const result = {
      namespace,
      entries: report.imported,
      writeEvery,
      storeEvery,
      viaStore,
      queries: queries.length,
      samples: recallTimes.length,
      recallP50: percentile(recallTimes, 50),
      recallP95: percentile(recallTimes, 95),
      bareP50: percentile(bareTimes, 50),
      bareP95: percentile(bareTimes, 95),
    };
    result.ratioP50 = result.recallP50 / result.bareP50;
    result.recallCpuMean = recallCpu.reduce((a, b) => a + b, 0) / recallCpu.length;
    result.bareCpuMean = bareCpu.reduce((a, b) => a + b, 0) / bareCpu.length;
    result.cpuRatio = result.recallCpuMean / result.bareCpuMean;
    if (storeTimes.length > 0) {
      result.storeP50 = percentile(storeTimes, 50);
      result.storeCpuMean = storeCpu.reduce((a, b) => a + b, 0) / storeCpu.length;
    }
    console.log(JSON.stringify(result));
  } finally {
    await memory.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const size of sizes.length > 0 ? sizes : [ownTurns.length]) await measure(corpusOf(size));
