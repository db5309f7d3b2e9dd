/** Which contradiction signals fired between an older and a newer text. */
export interface ContradictionSignals {
  /** One text negates, the other does not (and they overlap, Jaccard > 0.3). */
  negationReversal: number;
  /** Both state a preference and say something different. */
  preferenceChange: number;
  /** The newer text marks a change over time (now, no longer, switched...) and they overlap (Jaccard > 0.2). */
  temporalShift: number;
  /** Sum of the fired signals, at most 1. */
  total: number;
}

/** One older entry weighed against a newly stored one. */
export interface ConflictCandidate {
  /** The older entry's key. */
  key: string;
  /** Jaccard similarity of the two texts' word sets. */
  jaccard: number;
  /** Cosine of the two embeddings (from recall's vector stage), when both have one. */
  cosine?: number;
  /** Keyword overlap: the older entry's keyword relevance for the new text, in [0, 1). */
  bm25: number;
  /** `jaccard`, or with `combined` and a cosine: 0.4 x Jaccard + 0.4 x cosine + 0.2 x BM25. */
  similarity: number;
  /** Contradiction signals (negation reversal, preference change, temporal shift). */
  signals: ContradictionSignals;
  /** similarity + 0.3 x signals.total. */
  score: number;
  /** Set when the texts are about different subjects (then the entry is never superseded). */
  differentSubject?: string;
  /** True when this entry was marked superseded by the new one. */
  superseded: boolean;
}

/**
 * What conflict detection decided when an entry was stored (`MemoryEntry.conflict`, on the
 * result of `store` only): which older entries of the same namespace it superseded, and why.
 */
export interface ConflictDecision {
  mode: "jaccard" | "combined";
  threshold: number;
  /** Keys of the older entries now marked `supersededBy` the stored key. */
  superseded: string[];
  /** Every candidate looked at, best score first, with the parts of its score. */
  candidates: ConflictCandidate[];
}
