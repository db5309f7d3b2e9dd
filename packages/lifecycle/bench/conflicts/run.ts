/**
 * The labelled conflict benchmark (issue 24): stores every pair of pairs.jsonl and the long-store
 * scenario of scenario.json through the library (`createSqliteMemory`, one real SQLite file per
 * embedder, a namespace per pair), with conflict detection on as `detection-settings.ts` says, and
 * reports precision, recall and false supersessions per class, split and embedder.
 *
 *   pnpm --filter @memory/lifecycle bench:conflicts [--embedder local|none|both]
 *     [--split dev|check|holdout|blind|all] [--out results.json] [--verbose]
 *
 * Not a test: it asserts nothing about quality; the numbers go in README.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createLocalEmbeddings, type LocalEmbeddingProvider } from "@memory/embeddings/local";
import { createSqliteMemory } from "@memory/sqlite";
import { loadConflictBenchPairs, loadConflictBenchScenario } from "./dataset.js";
import { conflictDetectionSettings, describeDetectionSettings } from "./detection-settings.js";
import { isWrong, type SplitFilter, splitMetrics } from "./pair-metrics.js";
import { type PairOutcome, runPair } from "./pair-run.js";
import { type EmbedderResult, longStoreTable, pairsTable, summaryTable } from "./report.js";
import { runScenario } from "./scenario-run.js";

const USAGE =
  "usage: bench:conflicts [--embedder local|none|both] [--split dev|check|holdout|blind|all] [--out file.json] [--verbose]";

function readOptions() {
  const { values } = parseArgs({
    options: {
      embedder: { type: "string", default: "both" },
      split: { type: "string", default: "all" },
      out: { type: "string" },
      verbose: { type: "boolean", default: false },
    },
  });
  const embedders = { local: ["local"], none: ["none"], both: ["local", "none"] }[
    values.embedder as string
  ];
  if (embedders === undefined) {
    throw new Error(`--embedder must be local, none or both, not "${values.embedder}"\n${USAGE}`);
  }
  if (!["dev", "check", "holdout", "blind", "all"].includes(values.split as string)) {
    throw new Error(
      `--split must be dev, check, holdout, blind or all, not "${values.split}"\n${USAGE}`,
    );
  }
  return {
    embedders: embedders as ("local" | "none")[],
    split: values.split as SplitFilter,
    out: values.out,
    verbose: values.verbose === true,
  };
}

function printWrong(embedder: string, outcome: PairOutcome): void {
  const { pair } = outcome;
  const got = outcome.oldSuperseded ? "superseded" : "kept";
  const score = outcome.oldScore === undefined ? "not a candidate" : outcome.oldScore.toFixed(3);
  console.log(
    `  [${embedder}] ${pair.id} (${pair.class}) expected ${pair.expect}, old ${got} (score ${score})\n    old: ${pair.old}\n    new: ${pair.new}`,
  );
  for (const other of outcome.othersSuperseded) {
    console.log(`    also superseded ${other.key} by ${other.by}: ${other.content}`);
  }
}

async function runEmbedder(
  embedder: "local" | "none",
  split: SplitFilter,
  verbose: boolean,
): Promise<EmbedderResult> {
  const provider: LocalEmbeddingProvider | undefined =
    embedder === "local" ? createLocalEmbeddings() : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), "memory-conflict-bench-"));
  const memory = createSqliteMemory({
    path: path.join(dir, "brain.db"),
    ...(provider ? { embedder: provider } : {}),
    ...conflictDetectionSettings(),
  });
  const started = performance.now();
  try {
    const pairs = loadConflictBenchPairs().filter(
      (pair) => split === "all" || pair.split === split,
    );
    const outcomes: PairOutcome[] = [];
    for (const pair of pairs) outcomes.push(await runPair(memory, pair));
    const scenario = await runScenario(memory, loadConflictBenchScenario());
    if (verbose) {
      console.log(`\nWrong decisions with ${embedder}:`);
      for (const outcome of outcomes.filter(isWrong)) printWrong(embedder, outcome);
      for (const item of scenario.falseSupersessions) {
        console.log(
          `  [${embedder}] long store: ${item.key} superseded by ${item.by} (${item.phase}): ${item.content}`,
        );
      }
      for (const miss of scenario.missed) {
        console.log(
          `  [${embedder}] long store: ${miss.update} missed ${miss.missing.join(", ")}: ${miss.content}`,
        );
      }
      for (const question of scenario.questions.filter((item) => !item.hit)) {
        console.log(
          `  [${embedder}] long store: "${question.query}" first ${question.firstKey ?? "nothing"}, expected ${question.expectKey}`,
        );
      }
    }
    const splits: SplitFilter[] =
      split === "all" ? ["dev", "check", "holdout", "blind", "all"] : [split];
    return {
      embedder,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      splits: splits.map((name) => splitMetrics(outcomes, name)),
      scenario,
    };
  } finally {
    await memory.close();
    await provider?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const options = readOptions();
const results: EmbedderResult[] = [];
for (const embedder of options.embedders) {
  results.push(await runEmbedder(embedder, options.split, options.verbose));
}
console.log(`\nConflict benchmark, settings: ${describeDetectionSettings()}\n`);
console.log(summaryTable(results));
for (const result of results) {
  console.log(
    `\nPer class, ${result.embedder} (P precision, R recall on expect=supersede, FS false supersessions), ${result.seconds} s:\n`,
  );
  console.log(pairsTable(result));
}
console.log(`\nLong-store scenario (${results[0]?.scenario?.updates ?? 0} updates):\n`);
console.log(longStoreTable(results));
if (options.out !== undefined) {
  writeFileSync(
    options.out,
    `${JSON.stringify({ settings: conflictDetectionSettings(), results }, null, 2)}\n`,
  );
  console.log(`\nJSON written to ${options.out}`);
}
