/**
 * Precision and recall of conflict detection on the labelled pairs
 * (test/fixtures/conflict-pairs.jsonl), with the test embedder, the offline `local` embedder and
 * no embedder, across thresholds. `pnpm --filter @memory/lifecycle conflicts:eval`. Not a test:
 * it prints the table of packages/api/README.md ("Conflicts"). Loading the local model takes
 * a few seconds.
 */
import type { EmbeddingProvider } from "@memory/api";
import { createLocalEmbeddings } from "@memory/embeddings/local";
import { createInMemoryMemory, createTestEmbedder } from "@memory/testkit";
import {
  loadConflictPairs,
  pairStats,
  type ScoredPair,
  scorePairs,
  supersededAt,
} from "../test/conflict-pairs.js";

const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
const pairs = loadConflictPairs();
const verbose = process.argv.includes("--verbose");

async function run(
  label: string,
  mode: "combined" | "jaccard",
  embedder?: EmbeddingProvider,
): Promise<void> {
  const memory = createInMemoryMemory({
    ...(embedder ? { embedder } : {}),
    // A threshold nothing reaches: the decision reports every pair's score, nothing is superseded.
    settings: { conflict_mode: mode, conflict_threshold: 2 },
  });
  let scored: ScoredPair[];
  try {
    scored = await scorePairs(memory, pairs);
  } finally {
    await memory.close();
  }
  for (const threshold of THRESHOLDS) {
    const stats = pairStats(scored, threshold);
    console.log(
      `| ${label} | ${mode} | ${threshold.toFixed(2)} | ${stats.precision.toFixed(3)} | ${stats.recall.toFixed(3)} | ${stats.truePositives} | ${stats.falsePositives} | ${stats.falseNegatives} |`,
    );
  }
  if (verbose) {
    for (const pair of scored) {
      const c = pair.candidate;
      console.log(
        `  ${pair.label.padEnd(17)} ${c ? c.score.toFixed(2) : "----"} ${c?.cosine?.toFixed(2) ?? "    "} ${supersededAt(pair, 0.6) ? "SUPERSEDED" : "          "} ${c?.differentSubject ?? ""} | ${pair.older} -> ${pair.newer}`,
      );
    }
  }
}

console.log(`${pairs.length} labelled pairs`);
console.log("| embedder | mode | threshold | precision | recall | TP | FP | FN |");
console.log("|---|---|---|---|---|---|---|---|");
await run("none (keyword only)", "combined");
await run("test (256 dims)", "combined", createTestEmbedder({ dimensions: 256 }));
await run("test (256 dims)", "jaccard", createTestEmbedder({ dimensions: 256 }));
const local = createLocalEmbeddings();
try {
  await run("local", "combined", local);
} finally {
  await (local as { close?: () => Promise<void> }).close?.();
}
