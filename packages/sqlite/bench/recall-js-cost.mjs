#!/usr/bin/env node
// The JavaScript part of a keyword recall on the 419-entry small store (LoCoMo conv-26): the
// recall engine of @memory/core over the SQLite stages, with the keyword and neighbours stages'
// answers kept from the first round, so later rounds run no SQL of those stages. CPU time per
// recall (`process.cpuUsage()`), to set beside small-store.mjs's whole recall and bare FTS5 query.
// Run `pnpm exec turbo run build` first. Not a test: nothing is asserted.
//
//   node packages/sqlite/bench/recall-js-cost.mjs /tmp/locomo-export [--rounds 10]

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  facadeOptionsFrom,
  MemoryFacade,
  RecallEngine,
  resolveRetrievalSettings,
} from "@memory/core";
import { createSqliteDriver } from "@memory/sqlite";
import { turnEntry } from "./locomo-turns.mjs";

const args = process.argv.slice(2);
const exportDir = args[0];
if (!exportDir || exportDir.startsWith("--")) {
  process.stderr.write("usage: recall-js-cost.mjs EXPORT_DIR [--rounds 10]\n");
  process.exit(2);
}
const rounds = Number(args.includes("--rounds") ? args[args.indexOf("--rounds") + 1] : "10");
const namespace = "conv-26";
const readJsonl = (file) =>
  fs
    .readFileSync(path.join(exportDir, file), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
const turns = readJsonl("corpus.jsonl").filter((line) => line.namespace === namespace);
const questions = readJsonl("queries.jsonl")
  .filter((line) => line.namespace === namespace)
  .map((line) => line.text);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-recall-js-"));
const driver = createSqliteDriver({ path: path.join(dir, "small.db") });
const memory = new MemoryFacade(
  driver,
  facadeOptionsFrom({ recallCacheSize: 0, logger: () => {} }),
);
try {
  await memory.importEntries(turns.map((line) => turnEntry(line, namespace)));
  const stages = driver.recallStages;
  const kept = new Map();
  const keep =
    (name) =>
    async (...input) => {
      const key = name + JSON.stringify(input);
      if (!kept.has(key)) kept.set(key, await stages[name](...input));
      return kept.get(key);
    };
  const engine = new RecallEngine({
    stages: new Proxy(stages, {
      get(target, property) {
        if (property === "keyword" || property === "neighbors") return keep(property);
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }),
    settings: resolveRetrievalSettings({ recallCacheSize: 0 }),
  });
  const options = { namespace, mode: "bm25", limit: 10, minScore: 0 };
  let recalls = 0;
  let cpu;
  // Round 0 fills the kept answers and warms the JIT; it is not counted.
  for (let round = 0; round <= rounds; round++) {
    if (round === 1) cpu = process.cpuUsage();
    for (const question of questions) {
      await engine.recall(question, options);
      if (round > 0) recalls++;
    }
  }
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({ recalls, engineCpuMsPerRecall: (used.user + used.system) / 1000 / recalls }),
  );
} finally {
  await memory.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
