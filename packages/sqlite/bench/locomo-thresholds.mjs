#!/usr/bin/env node
// What a min_score threshold keeps, on LoCoMo (docs/retrieval-quality.md, "Thresholds").
//
//   packages/sqlite/bench/locomo-thresholds.mjs [OUT_DIR]
//
// Runs the adapter twice through the kit (hybrid, local embedder, shipped defaults, minScore 0):
// once on each question's own conversation, once on the next conversation's namespace, which
// never holds the answer (LOCOMO_CROSS=1). Then, for each threshold: the share of evidence turns
// found in the top 10 that survive it, the share of own questions still answered, and the share
// of questions answered from the other conversation.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const out = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), "memory-thresholds-"));
const own = path.join(out, "own-scores.jsonl");
const cross = path.join(out, "cross-scores.jsonl");
for (const file of [own, cross]) fs.rmSync(file, { force: true });
const base = "LOCOMO_MODE=hybrid LOCOMO_EMBEDDER=local";
execFileSync(
  path.join(here, "locomo.sh"),
  [
    `own=${base} LOCOMO_SCORES_FILE='${own}'`,
    `cross=${base} LOCOMO_CROSS=1 LOCOMO_SCORES_FILE='${cross}'`,
  ],
  {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, LOCOMO_SYSTEMS: "none", LOCOMO_OUT: out },
  },
);
const read = (file) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const evidence = new Map(
  read(path.join(out, "per-query", "own.jsonl"))
    .filter((row) => row.category <= 4)
    .map((row) => [row.qid, new Set(row.evidence)]),
);
const ownScores = read(own).filter((row) => evidence.has(row.qid));
const crossScores = read(cross).filter((row) => evidence.has(row.qid));
let found = 0;
const foundScores = [];
for (const row of ownScores) {
  row.keys.slice(0, 10).forEach((key, i) => {
    if (evidence.get(row.qid).has(key)) {
      found++;
      foundScores.push(row.scores[i]);
    }
  });
}
const pct = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;
console.log(
  "| min_score | evidence in top 10 kept | own questions answered | questions about another conversation answered |",
);
console.log("|---|---|---|---|");
for (const t of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) {
  const kept = foundScores.filter((score) => score >= t).length;
  const answered = ownScores.filter((row) => (row.scores[0] ?? 0) >= t).length;
  const wrong = crossScores.filter((row) => (row.scores[0] ?? 0) >= t).length;
  console.log(
    `| ${t.toFixed(2)} | ${pct(kept, found)} | ${pct(answered, ownScores.length)} | ${pct(wrong, crossScores.length)} |`,
  );
}
