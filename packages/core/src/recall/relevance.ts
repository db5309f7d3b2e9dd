import type { KeywordStatistics, QueryTerm, VectorCalibration } from "@memory/api";
import { countIndexedTerms, termMatches } from "./text-analyzer.js";

const SPACE = 32;

/**
 * Relevance: one score in [0, 1] that means "how well this entry matches the query", the same on
 * every backend, in every mode and at every store size, so that one `min_score` works
 * everywhere (docs/architecture.md, "What a recall score means").
 *
 * - Keyword part: Okapi BM25 (k1 1.2, b 0.75) with term statistics of the entry's namespace
 *   only, divided by the query's total IDF: 1.0 means "every query term once, in an entry of
 *   average length". That ratio is then saturated to [0, 1). Matching only part of the query
 *   (by IDF weight) scores proportionally less; terms absent from the store weigh the most, so
 *   a query about something the store never heard of cannot score high on one shared word.
 * - Vector part: the cosine mapped linearly from `floor` (relevance 0; anything at or below,
 *   negative cosines included, never counts) to `full` (relevance 1).
 * - Both parts: their weighted mean (keyword 0.7, vector 0.3 by default), but never less than
 *   half the stronger part. Keyword-only or vector-only recall uses the one part.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Lucene's always-positive IDF: a term in every entry still weighs a little. */
export function inverseDocumentFrequency(documents: number, frequency: number): number {
  const n = Math.max(documents, frequency);
  return Math.log(1 + (n - frequency + 0.5) / (frequency + 0.5));
}

/**
 * Saturation of the BM25 ratio: `1 - exp(-ratio / 0.527)`, i.e. 0.85 for "every term once at
 * average length", 0.61 for half the query's weight, 0.38 for a quarter. Monotone, so keyword
 * order is BM25 order.
 */
const KEYWORD_SCALE = 1 / Math.log(1 / 0.15);

/**
 * When the query is nothing but stop words, a full match is still weak evidence: 0.3 keeps
 * it below the default `min_score` whatever the store holds.
 */
export const STOP_WORDS_ONLY_FACTOR = 0.3;

/** Precomputed per-query weights: reuse one scorer for every candidate of a recall. */
export class KeywordScorer {
  readonly #terms: readonly QueryTerm[];
  readonly #idf: number[];
  readonly #totalIdf: number;
  readonly #averageLength: number;
  readonly #factor: number;
  readonly #exact = new Map<string, number>();
  /** The distinct exact terms and each one's first index, as arrays (iterated per candidate). */
  readonly #exactTexts: string[];
  readonly #exactIndexes: number[];
  readonly #prefixes: number[] = [];
  /** Prefix terms (or odd exact ones, empty or with a space) are matched token by token. */
  readonly #byToken: boolean;
  /** Term frequencies of the entry being scored, reused: `bm25` allocates nothing. */
  readonly #frequencies: Int32Array;

  constructor(terms: readonly QueryTerm[], statistics: KeywordStatistics) {
    this.#terms = terms;
    terms.forEach((term, index) => {
      if (term.prefix) this.#prefixes.push(index);
      else if (!this.#exact.has(term.text)) this.#exact.set(term.text, index);
    });
    this.#idf = terms.map((_, index) =>
      inverseDocumentFrequency(statistics.documents, statistics.documentFrequency[index] ?? 0),
    );
    this.#totalIdf = this.#idf.reduce((sum, value) => sum + value, 0);
    this.#averageLength = statistics.averageLength > 0 ? statistics.averageLength : 1;
    this.#factor =
      terms.length > 0 && terms.every((term) => term.stop) ? STOP_WORDS_ONLY_FACTOR : 1;
    this.#exactTexts = [...this.#exact.keys()];
    this.#exactIndexes = [...this.#exact.values()];
    this.#byToken =
      this.#prefixes.length > 0 ||
      this.#exactTexts.some((text) => text === "" || text.includes(" "));
    this.#frequencies = new Int32Array(terms.length);
  }

  /** Raw BM25 of an entry given its index terms (space-joined, as backends store them). */
  bm25(indexed: string): number {
    if (this.#terms.length === 0 || indexed === "") return 0;
    // Runs for every candidate of every recall. Without prefix terms (the common case) each
    // distinct exact term is found by `indexOf` in the joined terms, which allocates nothing;
    // with them, the terms are split and every token compared.
    const frequencies = this.#frequencies.fill(0);
    const length = this.#byToken
      ? this.#countTokens(indexed, frequencies)
      : this.#countExact(indexed, frequencies);
    if (length === 0) return 0;
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / this.#averageLength);
    let score = 0;
    for (let t = 0; t < frequencies.length; t++) {
      const tf = frequencies[t]!;
      if (tf > 0) score += (this.#idf[t]! * tf * (BM25_K1 + 1)) / (tf + norm);
    }
    return score;
  }

  /** Counts whole-token occurrences of the exact terms; the entry's length, or 0 if none occurs. */
  #countExact(indexed: string, frequencies: Int32Array): number {
    let any = false;
    for (let term = 0; term < this.#exactTexts.length; term++) {
      const text = this.#exactTexts[term]!;
      const index = this.#exactIndexes[term]!;
      let from = 0;
      for (;;) {
        const at = indexed.indexOf(text, from);
        if (at < 0) break;
        const end = at + text.length;
        if (
          (at === 0 || indexed.charCodeAt(at - 1) === SPACE) &&
          (end === indexed.length || indexed.charCodeAt(end) === SPACE)
        ) {
          frequencies[index]!++;
          any = true;
        }
        from = end;
      }
    }
    return any ? countIndexedTerms(indexed) : 0;
  }

  /** Counts token by token (prefix terms); the entry's length, or 0 if no term matches. */
  #countTokens(indexed: string, frequencies: Int32Array): number {
    const tokens = indexed.split(" ");
    let any = false;
    // Exact terms by one map lookup per token, only prefix terms by comparison.
    for (const token of tokens) {
      const exact = this.#exact.get(token);
      if (exact !== undefined) {
        frequencies[exact]!++;
        any = true;
      }
      for (const t of this.#prefixes) {
        if (termMatches(token, this.#terms[t]!)) {
          frequencies[t]!++;
          any = true;
        }
      }
    }
    return any ? tokens.length : 0;
  }

  /** Keyword relevance in [0, 1) of a raw BM25 score from {@link bm25}. */
  relevance(bm25: number): number {
    if (!(bm25 > 0) || this.#totalIdf <= 0) return 0;
    return this.#factor * (1 - Math.exp(-(bm25 / this.#totalIdf) / KEYWORD_SCALE));
  }
}

/** Vector relevance in [0, 1]: linear from `floor` to `full`; non-finite input is 0. */
export function vectorRelevance(cosine: number, calibration: VectorCalibration): number {
  if (!Number.isFinite(cosine)) return 0;
  const span = calibration.full - calibration.floor;
  if (!(span > 0)) return cosine >= calibration.full ? 1 : 0;
  return Math.min(1, Math.max(0, (cosine - calibration.floor) / span));
}

/**
 * Either part alone is worth at least half of itself: a strong match by meaning with no shared
 * word (or the reverse) stays relevant whatever the weights. On LoCoMo it changes no ranking
 * measurably (R@10 66.2 vs 66.3); it lets a synonym-only match pass the default threshold.
 */
export const SINGLE_PART_FLOOR = 0.5;

/** The weighted mean of the parts that were measured, or {@link SINGLE_PART_FLOOR} x the best part. */
export function combinedRelevance(
  parts: { keyword?: number; vector?: number },
  weights: { keyword: number; vector: number },
): number {
  let sum = 0;
  let weight = 0;
  if (parts.keyword !== undefined) {
    sum += weights.keyword * parts.keyword;
    weight += weights.keyword;
  }
  if (parts.vector !== undefined) {
    sum += weights.vector * parts.vector;
    weight += weights.vector;
  }
  const mean = weight > 0 ? sum / weight : 0;
  return Math.max(mean, SINGLE_PART_FLOOR * Math.max(parts.keyword ?? 0, parts.vector ?? 0));
}

/** LIKE matches (substrings, the last resort) are weak evidence: at most 0.5. */
export const LIKE_MAX_RELEVANCE = 0.5;

/** Share of LIKE keywords found in the key or content (case-insensitive), times 0.5. */
export function likeRelevance(keywords: readonly string[], key: string, content: string): number {
  if (keywords.length === 0) return 0;
  const haystack = `${key.toLowerCase()}\u0000${content.toLowerCase()}`;
  const found = keywords.filter((word) => haystack.includes(word)).length;
  return (LIKE_MAX_RELEVANCE * found) / keywords.length;
}
