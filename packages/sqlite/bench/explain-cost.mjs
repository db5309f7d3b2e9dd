#!/usr/bin/env node
// What a traced recall (`explainRecall`) costs beside a plain one, on the 419-entry small store
// (LoCoMo conv-26, keyword recall, the hot cache off so every recall searches). CPU time per
// call (`process.cpuUsage()`), the two interleaved query by query. Run `pnpm exec turbo run
// build` first. Not a test: nothing is asserted.
//
//   node packages/sqlite/bench/explain-cost.mjs /tmp/locomo-export [--rounds 3]

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSqliteMemory } from "@memory/sqlite";

const args = process.argv.slice(2);
const exportDir = args[0];
if (!exportDir || exportDir.startsWith("--")) {
  process.stderr.write("usage: explain-cost.mjs EXPORT_DIR [--rounds 3]\n");
  process.exit(2);
}
const rounds = Number(args.includes("--rounds") ? args[args.indexOf("--rounds") + 1] : "3");
const namespace = "conv-26";
const readJsonl = (file) =>
  fs
    .readFileSync(path.join(exportDir, file), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
const turns = readJsonl("corpus.jsonl").filter((line) => line.namespace === namespace);
const queries = readJsonl("queries.jsonl").filter((line) => line.namespace === namespace);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "explain-cost-"));
const memory = createSqliteMemory({
  path: path.join(dir, "brain.db"),
  settings: { recallCacheSize: 0 },
});
try {
  await memory.importEntries(
    turns.map((turn) => ({
      key: turn.key,
      content: turn.content,
      namespace,
      category: "conversation",
      ...(turn.session_id ? { sessionId: turn.session_id } : {}),
    })),
  );
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let recallMs = 0;
  let traceMs = 0;
  let candidates = 0;
  const options = { namespace, mode: "bm25", limit: 10 };
  for (let round = 0; round < rounds; round++) {
    for (const { text: query } of queries) {
      let start = cpu();
      await memory.recall(query, options);
      recallMs += cpu() - start;
      start = cpu();
      const trace = await memory.explainRecall(query, options);
      traceMs += cpu() - start;
      candidates += trace.candidates.length;
    }
  }
  const calls = rounds * queries.length;
  console.log(
    JSON.stringify({
      calls,
      recallCpuMs: recallMs / calls,
      explainCpuMs: traceMs / calls,
      ratio: traceMs / recallMs,
      candidatesPerTrace: candidates / calls,
    }),
  );
} finally {
  await memory.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
