import { readFileSync } from "node:fs";
import type { ConflictCandidate, Memory } from "@memory/api";

/** One labelled pair of the conflict test set (test/fixtures/conflict-pairs.jsonl). */
export interface ConflictPair {
  older: string;
  newer: string;
  label: "contradiction" | "update" | "duplicate" | "unrelated" | "different_subject";
  note: string;
}

/** Labels whose older entry should be superseded by the newer one. */
export const SUPERSEDE_LABELS = new Set<ConflictPair["label"]>([
  "contradiction",
  "update",
  "duplicate",
]);

export function loadConflictPairs(): ConflictPair[] {
  const text = readFileSync(new URL("./fixtures/conflict-pairs.jsonl", import.meta.url), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ConflictPair);
}

/** A pair with the score conflict detection gave it on a real store. */
export interface ScoredPair extends ConflictPair {
  candidate: ConflictCandidate | undefined;
}

/**
 * Stores each pair (older, then newer, as core entries in a namespace of its own) into a memory
 * opened with conflict detection on and a threshold nothing reaches, so the decision reports the
 * score of every pair without superseding; thresholds are then applied to the scores.
 */
export async function scorePairs(memory: Memory, pairs: ConflictPair[]): Promise<ScoredPair[]> {
  const scored: ScoredPair[] = [];
  for (const [index, pair] of pairs.entries()) {
    const namespace = `pair-${index}`;
    await memory.store({ key: "older", content: pair.older, namespace });
    const newer = await memory.store({ key: "newer", content: pair.newer, namespace });
    scored.push({ ...pair, candidate: newer.conflict?.candidates.find((c) => c.key === "older") });
  }
  return scored;
}

/** Whether a scored pair is superseded at `threshold` (the rule of `scoreConflictPair`). */
export function supersededAt(pair: ScoredPair, threshold: number): boolean {
  const candidate = pair.candidate;
  return (
    candidate !== undefined &&
    candidate.differentSubject === undefined &&
    candidate.score > threshold &&
    pair.older.trim() !== pair.newer.trim()
  );
}

export interface PairStats {
  threshold: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  /** Superseded pairs labelled unrelated or different_subject (must be 0 with the defaults). */
  unrelatedSuperseded: number;
}

export function pairStats(pairs: ScoredPair[], threshold: number): PairStats {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  for (const pair of pairs) {
    const predicted = supersededAt(pair, threshold);
    const expected = SUPERSEDE_LABELS.has(pair.label);
    if (predicted && expected) truePositives++;
    else if (predicted) falsePositives++;
    else if (expected) falseNegatives++;
  }
  const predicted = truePositives + falsePositives;
  return {
    threshold,
    truePositives,
    falsePositives,
    falseNegatives,
    precision: predicted === 0 ? 1 : truePositives / predicted,
    recall: truePositives / (truePositives + falseNegatives),
    unrelatedSuperseded: falsePositives,
  };
}
