/**
 * Retrieval scores, computed exactly as the LoCoMo kit's `locomo.mjs` computes them
 * (`scoreQuery`, `aggregate`, `aggregateAll`), so `memory eval` and the kit print the same
 * numbers for the same ranked keys: the same deduplication, the same cut at the limit, the same
 * divisions and the same order of additions (floating-point sums depend on it).
 */

/** The cut-offs every report shows (the kit's `KS`). */
export const EVAL_KS = [1, 5, 10, 20] as const;

export type EvalK = (typeof EVAL_KS)[number];

/** The scores of one question. `recall@k` and `hit@k` for every k of `EVAL_KS`. */
export interface QuestionScores {
  /** Distinct keys kept (at most the limit). */
  returned: number;
  "recall@1": number;
  "recall@5": number;
  "recall@10": number;
  "recall@20": number;
  "hit@1": number;
  "hit@5": number;
  "hit@10": number;
  "hit@20": number;
  /** Reciprocal rank of the first expected key in the kept keys; 0 when none is there. */
  rr: number;
}

/** Means over a group of questions; `null` for a group without questions (as the kit). */
export interface AggregateScores {
  n: number;
  "recall@1": number | null;
  "recall@5": number | null;
  "recall@10": number | null;
  "recall@20": number | null;
  "hit@1": number | null;
  "hit@5": number | null;
  "hit@10": number | null;
  "hit@20": number | null;
  mrr: number | null;
  /** Share of questions for which recall returned nothing. */
  empty: number | null;
}

export interface EvalMetrics {
  /** Every question except the categories left out of "overall" (LoCoMo: 5, adversarial). */
  overall: AggregateScores;
  /** Every question. */
  all: AggregateScores;
  /** One group per category, in category order (numbers first, numerically). */
  by_category: Record<string, AggregateScores>;
}

/**
 * Scores one question: `keys` are deduplicated (first occurrence kept) and cut at `limit`;
 * recall@k is the share of the expected keys among the first k, hit@k 1 when any is there, rr
 * the reciprocal rank of the first expected key. Fewer than k keys simply count as misses.
 * `expected` must not be empty (questions without evidence are skipped before scoring).
 */
export function scoreQuestion(
  expected: readonly string[],
  keys: readonly string[],
  limit: number,
): QuestionScores {
  const ranked: string[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    ranked.push(key);
    if (ranked.length >= limit) break;
  }
  // A key listed twice in `expected` counts once, in the numerator and the denominator.
  const evidence = new Set(expected);
  const scores = { returned: ranked.length } as QuestionScores;
  for (const k of EVAL_KS) {
    const found = ranked.slice(0, k).filter((key) => evidence.has(key)).length;
    scores[`recall@${k}`] = found / evidence.size;
    scores[`hit@${k}`] = found > 0 ? 1 : 0;
  }
  const first = ranked.findIndex((key) => evidence.has(key));
  scores.rr = first >= 0 ? 1 / (first + 1) : 0;
  return scores;
}

function mean(values: readonly number[]): number | null {
  return values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
}

/** Means of a group of scored questions. */
export function aggregateScores(rows: readonly QuestionScores[]): AggregateScores {
  const out = { n: rows.length } as AggregateScores;
  for (const k of EVAL_KS) {
    out[`recall@${k}`] = mean(rows.map((row) => row[`recall@${k}`]));
    out[`hit@${k}`] = mean(rows.map((row) => row[`hit@${k}`]));
  }
  out.mrr = mean(rows.map((row) => row.rr));
  out.empty = mean(rows.map((row) => (row.returned === 0 ? 1 : 0)));
  return out;
}

/** Category order: numbers numerically, then names alphabetically. */
export function compareCategories(a: string, b: string): number {
  const numberA = /^\d+$/.test(a) ? Number(a) : Number.NaN;
  const numberB = /^\d+$/.test(b) ? Number(b) : Number.NaN;
  if (!Number.isNaN(numberA) && !Number.isNaN(numberB)) return numberA - numberB;
  if (!Number.isNaN(numberA)) return -1;
  if (!Number.isNaN(numberB)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Overall, all and per-category means. Rows keep the order given (the kit's order: dataset
 * order), since the sums are floating point. `inOverall` says which categories count in
 * "overall" (default: all of them; LoCoMo leaves out category 5).
 */
export function aggregateMetrics<Row extends QuestionScores & { category: string | number }>(
  rows: readonly Row[],
  inOverall: (category: string | number) => boolean = () => true,
): EvalMetrics {
  const categories = [...new Set(rows.map((row) => String(row.category)))].sort(compareCategories);
  const byCategory: Record<string, AggregateScores> = {};
  for (const category of categories) {
    byCategory[category] = aggregateScores(rows.filter((row) => String(row.category) === category));
  }
  return {
    overall: aggregateScores(rows.filter((row) => inOverall(row.category))),
    all: aggregateScores(rows),
    by_category: byCategory,
  };
}

/** The kit's latency quantile: the value at rank ceil(q * n) of the sorted list. */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? null;
}
