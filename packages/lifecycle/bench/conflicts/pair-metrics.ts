import { PAIR_CLASSES, type PairClass, type Split } from "./dataset.js";
import type { PairOutcome } from "./pair-run.js";

/** Counts over a group of pairs; precision and recall are null when undefined (no predictions, no positives). */
export interface PairMetrics {
  pairs: number;
  /** Pairs labelled supersede. */
  positives: number;
  truePositives: number;
  /** `old` superseded although labelled keep. */
  falsePositives: number;
  falseNegatives: number;
  /** `before` facts superseded (never labelled to be). */
  othersSuperseded: number;
  /** Every supersession that should not have happened: false positives plus other facts superseded. */
  falseSupersessions: number;
  precision: number | null;
  recall: number | null;
}

export function pairMetrics(outcomes: PairOutcome[]): PairMetrics {
  let positives = 0;
  let truePositives = 0;
  let falsePositives = 0;
  let othersSuperseded = 0;
  for (const outcome of outcomes) {
    const expected = outcome.pair.expect === "supersede";
    if (expected) positives++;
    if (outcome.oldSuperseded && expected) truePositives++;
    if (outcome.oldSuperseded && !expected) falsePositives++;
    othersSuperseded += outcome.othersSuperseded.length;
  }
  const predicted = truePositives + falsePositives;
  return {
    pairs: outcomes.length,
    positives,
    truePositives,
    falsePositives,
    falseNegatives: positives - truePositives,
    othersSuperseded,
    falseSupersessions: falsePositives + othersSuperseded,
    precision: predicted === 0 ? null : truePositives / predicted,
    recall: positives === 0 ? null : truePositives / positives,
  };
}

export type SplitFilter = Split | "all";

/** Metrics per class and over all classes, for one split (or all). */
export interface SplitMetrics {
  split: SplitFilter;
  total: PairMetrics;
  byClass: Record<PairClass, PairMetrics>;
}

export function splitMetrics(outcomes: PairOutcome[], split: SplitFilter): SplitMetrics {
  const inSplit = outcomes.filter((outcome) => split === "all" || outcome.pair.split === split);
  const byClass = Object.fromEntries(
    PAIR_CLASSES.map((name) => [
      name,
      pairMetrics(inSplit.filter((outcome) => outcome.pair.class === name)),
    ]),
  ) as Record<PairClass, PairMetrics>;
  return { split, total: pairMetrics(inSplit), byClass };
}

/** Whether the outcome disagrees with its label, or superseded something besides `old`. */
export function isWrong(outcome: PairOutcome): boolean {
  return (
    outcome.oldSuperseded !== (outcome.pair.expect === "supersede") ||
    outcome.othersSuperseded.length > 0
  );
}
