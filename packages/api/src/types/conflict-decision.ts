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

/**
 * A fact as the conflict rules read it from an entry's text (English; `text_language = "none"`
 * reads nothing and falls back to similarity). Shown in decisions so each one can be explained.
 */
export interface FactReading {
  /** The subject: `@user`, `@user > sister maya`, `crate and barrel`; absent when not read. */
  subject?: string;
  /** The normalized attribute (`lives_in`, `role:ceo`, `favorite:food`, `verb:<stem>`, `be`). */
  attribute?: string;
  /** `single`: a new value replaces the old; `multi`: values add up. */
  cardinality?: "single" | "multi";
  /** The value as typed ("Munich", "Dr. Park"). */
  value?: string;
  /** The statement is negated ("does not", "never", "dislikes"). */
  negated: boolean;
  /** `additive` (also, too, another), `ended` (no longer, quit, used to), `change` (now, moved, switched, has a new). */
  markers: ("additive" | "ended" | "change")[];
  /** Values the fact says are over ("switched from X", "no more X", "instead of X", "quit X"). */
  ends?: string[];
  /** What could not be read. */
  note?: string;
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
  /** With the rules: how the older entry was read. */
  reading?: FactReading;
  /** With the rules: the rule that decided (`single-value-changed`, `different-subjects`, ...). */
  rule?: string;
  /** With the rules: why it was or was not superseded, in words. */
  reason?: string;
  /** `chat` when a chat model confirmed or overturned the rules (`conflict_confirm = "chat"`). */
  decidedBy?: "rules" | "chat";
  /** With `conflict_policy = "flag"`: the rules would supersede it; it was only flagged. */
  flagged?: boolean;
  /** With `conflict_policy = "link"`: the rules would supersede it; it was related instead. */
  linked?: boolean;
}

/**
 * What conflict detection decided when an entry was stored (`MemoryEntry.conflict`, on the
 * result of `store` only): which older entries of the same namespace it superseded, and why.
 */
export interface ConflictDecision {
  /**
   * `rules`: facts read and compared (similarity kept as evidence). `jaccard` / `combined`: the
   * similarity score decided (only for `text_language = "none"`, which the reader cannot read).
   */
  mode: "rules" | "jaccard" | "combined";
  /** The similarity threshold (decides only in the `jaccard` / `combined` fallback). */
  threshold: number;
  /**
   * `supersede` (default) hides the older entries; `flag` records them and hides nothing; `link`
   * hides nothing and relates the new entry to each with `contradicts`.
   */
  policy?: "supersede" | "flag" | "link";
  /** With the rules: how the new entry was read. */
  reading?: FactReading;
  /** Why the similarity fallback decided instead of the rules. */
  fallback?: string;
  /** With `conflict_policy = "flag"`: keys the rules would have superseded. */
  flagged?: string[];
  /** With `conflict_policy = "link"`: keys the new entry now `contradicts` (instead of superseding). */
  linked?: string[];
  /** With `conflict_confirm = "chat"`: what the model was asked and whether it answered. */
  confirmation?: { asked: number; answered: number; failure?: string };
  /** Keys of the older entries now marked `supersededBy` the stored key. */
  superseded: string[];
  /** Every candidate looked at (superseded first, then by score), with its reading and evidence. */
  candidates: ConflictCandidate[];
}

/** One candidate of a {@link ConflictRecord}: the decision about it, without the evidence scores. */
export interface ConflictRecordCandidate {
  /** The older entry's key. */
  key: string;
  /** Its conflict score (similarity + 0.3 x signals), kept as evidence. */
  score: number;
  /** True when the new entry superseded it. */
  superseded: boolean;
  /** With `conflict_policy = "flag"`: the rules would supersede it; it was only flagged. */
  flagged?: boolean;
  /** With `conflict_policy = "link"`: related with `contradicts` instead of superseded. */
  linked?: boolean;
  /** How the older entry was read (rules only). */
  reading?: FactReading;
  /** The rule that decided (`single-value-changed`, `different-subjects`, ...). */
  rule?: string;
  /** Why it was or was not superseded, in words. */
  reason?: string;
  /** `chat` when a chat model confirmed or overturned the rules. */
  decidedBy?: "rules" | "chat";
}

/**
 * The compact conflict decision kept WITH the entry it was made for (`MemoryEntry.conflictRecord`),
 * written in the store's own write batch, so `get`, `list`, export/import, snapshots and the web
 * inspector can show it later. At most {@link CONFLICT_RECORD_CANDIDATES} candidates are kept
 * (superseded and flagged ones first); `candidatesSeen` says how many were looked at.
 */
export interface ConflictRecord {
  /** When the decision was made (the store's time, UTC ISO-8601). */
  decidedAt: string;
  mode: ConflictDecision["mode"];
  policy?: "supersede" | "flag" | "link";
  /** How the entry itself was read (rules only). */
  reading?: FactReading;
  /** Why the similarity fallback decided instead of the rules. */
  fallback?: string;
  /** Keys it superseded. */
  superseded: string[];
  /** With `conflict_policy = "flag"`: keys the rules would have superseded. */
  flagged?: string[];
  /** With `conflict_policy = "link"`: keys it was related to with `contradicts`. */
  linked?: string[];
  /** How many candidates were looked at (`candidates` keeps the first few). */
  candidatesSeen: number;
  candidates: ConflictRecordCandidate[];
}

/** How many candidates a {@link ConflictRecord} keeps. */
export const CONFLICT_RECORD_CANDIDATES = 5;

/** The longest `reason` a record keeps (characters; a longer one ends with `…`). */
export const CONFLICT_RECORD_REASON_CHARS = 300;

/**
 * Why an entry is superseded, kept with it (`MemoryEntry.supersessionRecord`) next to
 * `supersededBy`: written in the same batch that marks it, removed when it is made current again
 * (`unsupersede`, or a store of its key).
 */
export interface SupersessionRecord {
  /** The key of the entry that replaced it (the same as `supersededBy`). */
  by: string;
  /** When it was superseded (UTC ISO-8601). */
  at: string;
  /**
   * `rules` / `chat`: conflict detection on store; `manual`: `supersede(old, new)` by an agent or
   * user; `version`: a same-key store kept this content as a version of the key.
   */
  decidedBy: "rules" | "chat" | "manual" | "version";
  /** The conflict rule that decided (`single-value-changed`, `negated`, ...), when there was one. */
  rule?: string;
  /** Why, in words. */
  reason?: string;
}
