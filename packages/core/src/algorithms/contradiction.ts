import type { ContradictionSignals } from "@memory/api";
import { jaccardSimilarity } from "./jaccard.js";

const NEGATIONS = [
  "not",
  "never",
  "no",
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "wasn't",
  "won't",
  "can't",
  "cannot",
  "nobody",
  "nothing",
  "dont",
  "doesnt",
  "isnt",
  "wont",
  "cant",
];
const PREFERENCE =
  /\b(prefer|prefers|preferred|like|likes|love|loves|favou?rite|enjoy|enjoys|hate|hates|dislike|dislikes|want|wants)\b/i;
const TEMPORAL =
  /\b(now|currently|anymore|no longer|used to|changed|switched|moved|these days|nowadays|from now on|as of)\b/i;

/** Weights of the contradiction signals (DESIGN section 7). */
export const CONTRADICTION_WEIGHTS = {
  negationReversal: 0.4,
  preferenceChange: 0.3,
  temporalShift: 0.3,
} as const;
/** Jaccard required before a negation reversal counts (the texts must talk about the same thing). */
export const NEGATION_MIN_JACCARD = 0.3;
/** Jaccard required before a temporal shift counts. */
export const TEMPORAL_MIN_JACCARD = 0.2;
/** Contradiction signals are added to the similarity with this factor. */
export const CONTRADICTION_FACTOR = 0.3;

function hasNegation(text: string): boolean {
  const lower = text.toLowerCase().replaceAll("’", "'");
  // Words keep their inner apostrophes ("don't"), wherever they stand in the text (also first,
  // last or before punctuation); the part before an apostrophe counts too ("nobody's").
  const words = new Set<string>();
  for (const [word] of lower.matchAll(/[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu)) {
    words.add(word);
    words.add(word.split("'")[0]!);
  }
  return NEGATIONS.some((word) => words.has(word)) || /\bno longer\b/.test(lower);
}

/** Detects contradiction signals between an older and a newer text. */
export function contradictionSignals(older: string, newer: string): ContradictionSignals {
  const jaccard = jaccardSimilarity(older, newer);
  const differs = older.trim().toLowerCase() !== newer.trim().toLowerCase();
  const negationReversal =
    differs && jaccard > NEGATION_MIN_JACCARD && hasNegation(older) !== hasNegation(newer)
      ? CONTRADICTION_WEIGHTS.negationReversal
      : 0;
  const preferenceChange =
    differs && PREFERENCE.test(older) && PREFERENCE.test(newer)
      ? CONTRADICTION_WEIGHTS.preferenceChange
      : 0;
  const temporalShift =
    differs && jaccard > TEMPORAL_MIN_JACCARD && TEMPORAL.test(newer) && !TEMPORAL.test(older)
      ? CONTRADICTION_WEIGHTS.temporalShift
      : 0;
  return {
    negationReversal,
    preferenceChange,
    temporalShift,
    total: Math.min(1, negationReversal + preferenceChange + temporalShift),
  };
}

/** `jaccard`: word overlap only. `combined`: Jaccard 0.4 + cosine 0.4 + BM25 overlap 0.2. */
export type ConflictMode = "jaccard" | "combined";

export interface ConflictInput {
  older: string;
  newer: string;
  mode?: ConflictMode;
  /** Cosine of the two embeddings; when either side lacks one, `combined` falls back to Jaccard. */
  cosine?: number;
  /** Keyword overlap in 0..1 (e.g. the older entry's keyword relevance for the newer text). */
  bm25Overlap?: number;
  /** Default 0.6. */
  threshold?: number;
}

export interface ConflictResult {
  similarity: number;
  signals: ContradictionSignals;
  /** similarity + 0.3 x signals. */
  score: number;
  /** score above the threshold and the contents differ: the older entry should be superseded. */
  conflict: boolean;
}

/** Default conflict threshold (`conflict_threshold`). */
export const DEFAULT_CONFLICT_THRESHOLD = 0.6;

/** Scores whether `newer` contradicts (replaces) `older`. */
export function detectConflict(input: ConflictInput): ConflictResult {
  const jaccard = jaccardSimilarity(input.older, input.newer);
  const similarity =
    input.mode === "combined" && input.cosine !== undefined
      ? 0.4 * jaccard +
        0.4 * Math.max(0, input.cosine) +
        0.2 * Math.max(0, Math.min(1, input.bm25Overlap ?? 0))
      : jaccard;
  const signals = contradictionSignals(input.older, input.newer);
  const score = similarity + CONTRADICTION_FACTOR * signals.total;
  const differs = input.older.trim() !== input.newer.trim();
  return {
    similarity,
    signals,
    score,
    conflict: differs && score > (input.threshold ?? DEFAULT_CONFLICT_THRESHOLD),
  };
}
