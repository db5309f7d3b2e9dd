import type { ConflictDecision, ConflictRecord, SupersessionRecord } from "./conflict-decision.js";
import type { EntryRelation, ImportRelation } from "./relation.js";
import type { UsageStats } from "./usage.js";

/** The built-in categories. Any other name matching {@link CUSTOM_CATEGORY_PATTERN} is custom. */
export type BuiltInCategory = "core" | "daily" | "conversation";

/**
 * What kind of memory an entry is.
 * - `core`: long-term facts, preferences and decisions; never decays, never pruned.
 * - `daily`: session logs.
 * - `conversation`: ephemeral conversation turns.
 * - any other name: a custom category (letters, digits, `-`, `_`; at most 64 characters).
 */
// `string & {}` keeps editor completion for the built-in names while accepting custom ones.
export type Category = BuiltInCategory | (string & {});

/** The namespace used when an operation does not name one. */
export const DEFAULT_NAMESPACE = "default";

/** Which recall pipeline produced a result. */
export type SearchMode = "hybrid" | "bm25" | "embedding";

/** How keyword and vector result lists are merged. */
export type MergeStrategy = "rrf" | "weighted";

/**
 * The parts of a recall score, returned on every recall result so that a ranking can be
 * understood and tuned. Ranks are 0-based positions in each stage's candidate list. `score` is
 * `fused x decay`; `fused` is the relevance in [0, 1] (docs/architecture.md, "What a recall
 * score means"): the same meaning on every backend, in every mode and at every store size.
 */
export interface RecallExplain {
  /** The mode requested by the caller. */
  mode: SearchMode;
  /**
   * The stage that actually produced the result: `keyword`, `vector`, `hybrid`, `like` (the
   * LIKE fallback), `recent` (empty query: most recent entries) or `external` (a backend's
   * external source, e.g. the `lucid` command; not a stored entry).
   */
  source: "keyword" | "vector" | "hybrid" | "like" | "recent" | "external";
  /** How results were ordered when both stages ran. */
  strategy?: MergeStrategy;
  /** 0-based rank in the keyword candidate list (by BM25). */
  keywordRank?: number;
  /** Raw BM25 with the namespace's own term statistics (higher is better). */
  keywordScore?: number;
  /** The keyword part of relevance, in [0, 1). */
  keywordRelevance?: number;
  /** 0-based rank in the vector candidate list (by cosine). */
  vectorRank?: number;
  /** Cosine similarity between the query embedding and the entry embedding. */
  cosine?: number;
  /** The vector part of relevance, in [0, 1] (the cosine, calibrated). */
  vectorRelevance?: number;
  /** With `merge_strategy = "rrf"`: the rank-fusion value that ordered the result (not a relevance). */
  rrf?: number;
  /**
   * Question-word handling: the factor the entry's relevance got from what the query asks (an
   * entry ending with a question answers no question; a "when" question prefers entries that
   * mention a time). Absent when 1.
   */
  intent?: number;
  /**
   * Conversational context: what the relevance of the entry's session (its adjacent turns, the
   * session's best other match) added to its relevance. Absent when nothing was added.
   */
  context?: number;
  /** Relevance before decay, in [0, 1] (its own, adjusted by `intent`, raised by `context`). */
  fused: number;
  /** Time-decay factor applied (1 for core entries). */
  decay: number;
  /** The entry's importance, when set. */
  importance?: number;
  /** True when the vector stage was skipped because keyword hits were decisive. */
  earlyReturn?: boolean;
  /** Why the vector stage did not run or failed (no provider, fingerprint mismatch, provider error...). */
  degraded?: string;
  /**
   * A superseded entry (recalled with `includeSuperseded`): by which key, and why when the reason
   * was recorded (`rule`, `reason`, `decidedBy` of its `supersessionRecord`).
   */
  superseded?: {
    by: string;
    decidedBy?: SupersessionRecord["decidedBy"];
    rule?: string;
    reason?: string;
  };
  /**
   * Keys of the entries this one contradicts (its outgoing `contradicts` relations, e.g. written
   * by `conflict_policy = "link"`). When both are returned, this entry ranks above them.
   */
  contradicts?: string[];
  /**
   * Graph expansion (`graph_expansion`): what following relations from the best candidates added
   * to this entry's relevance (`lift`), through which edges (`via`: the candidate it was reached
   * from, the relation type and, through an entity both name, the entity's key). Absent when
   * nothing was added.
   */
  graph?: RecallGraphExplain;
  /** What usage did to the ranking (docs/usage.md); absent when nothing. */
  usage?: RecallUsageExplain;
}

/** What usage did to a result's ranking (`RecallExplain.usage`). */
export interface RecallUsageExplain {
  /** The entry is pinned: `boost` was added to its relevance. */
  pinned?: boolean;
  /** Relevance added (pin) or taken (demotion), signed. */
  boost?: number;
  /** How much longer its decay half-life was for being used (a factor, 1 = none). */
  halfLifeFactor?: number;
}

/** How graph expansion reached a result (`RecallExplain.graph`). */
export interface RecallGraphExplain {
  /** Relevance added, in [0, 1]. */
  lift: number;
  /** The strongest paths, at most 3. */
  via: { from: string; type: string; through?: string }[];
}

/** One stored memory. */
export interface MemoryEntry {
  /** A UUID assigned at first store; stable across upserts of the same key. */
  id: string;
  /** The caller's key; identity is `(namespace, key)`. */
  key: string;
  /** The remembered text, returned exactly as stored. */
  content: string;
  /** See {@link Category}. */
  category: Category;
  /** Isolation boundary between tenants or agents; `"default"` unless given. */
  namespace: string;
  /** The conversation/session the entry came from, if any. */
  sessionId?: string;
  /** 0..1; higher means more important. */
  importance?: number;
  /** Key of the newer entry that replaced this one (the text is kept for audit). */
  supersededBy?: string;
  /** Why it was superseded: by which key, which rule, when (docs/history.md). Kept with the entry. */
  supersessionRecord?: SupersessionRecord;
  /**
   * What conflict detection decided when this content was stored (what it superseded or flagged,
   * its own reading, the first candidates), kept with the entry (docs/history.md).
   */
  conflictRecord?: ConflictRecord;
  /** UTC ISO-8601 with millisecond precision, e.g. `2026-11-23T09:18:36.123Z`. */
  createdAt: string;
  /** UTC ISO-8601 with millisecond precision; changes on every upsert. */
  updatedAt: string;
  /** Recall only: the final score (after fusion and decay). `get`/`list` leave it unset. */
  score?: number;
  /** Recall only: how the score was made. */
  explain?: RecallExplain;
  /** Only when asked for (`withEmbedding(s)`): the stored embedding. */
  embedding?: number[];
  /**
   * Recall only: the file and lines the result was read from, so an agent can open the
   * surrounding text. File-backed backends (`@memory/markdown`) give it for their own entries
   * (`memory_get` with a path); every backend gives it for a collection's fragments, with
   * `collection` and `title` set.
   */
  source?: EntrySource;
  /**
   * `store` only, when conflict detection is on (`conflict_mode`) for the entry's category: the
   * older entries it superseded and the scores of every candidate looked at.
   */
  conflict?: ConflictDecision;
  /**
   * `store` only: the key under which a same-key store kept the previous content
   * (`<key>::history:<n>`; `history(key)` lists it). Absent when nothing was kept.
   */
  keptVersion?: string;
  /**
   * `export` only, on backends with `capabilities.relations`: the entry's outgoing relations
   * (export format 2; an import writes them once their targets exist). Absent when none.
   */
  relations?: EntryRelation[];
  /**
   * Pinned by a person (`Memory.pin`): always eligible for the memory context, boosted in
   * ranking, never pruned by hygiene nor merged away by the curator. Absent when not pinned.
   */
  pinned?: boolean;
  /** Snoozed (`Memory.snooze`): left out of recall and the context until this instant. */
  snoozedUntil?: string;
  /** `export` only, on backends with `capabilities.usage`: the entry's usage statistics. */
  usage?: UsageRecordExport;
}

/** The usage part of an exported entry (`MemoryEntry.usage`; `importEntries` restores it). */
export interface UsageRecordExport {
  stats: UsageStats;
  lastUsedDay?: string;
  recentQueries: string[];
}

/** Where a recall result lives: a file of a file-backed store, or a note of a collection. */
export interface EntrySource {
  /**
   * The file, relative to the memory tree (`memory/2026-11-24.md`) or, for a collection's
   * fragment, to the collection's root (`decisions/0007-cache.md`), with `/` separators.
   */
  path: string;
  /** First and last line of the result in the file (1-based, inclusive). */
  startLine: number;
  endLine: number;
  /** Set for a collection's fragment: the collection's name (also the entry's category). */
  collection?: string;
  /** Set for a collection's fragment: the note's title (frontmatter, first heading or file name). */
  title?: string;
  /** Set for a collection's fragment when the collection describes the note's folder (`context`). */
  context?: string;
  /**
   * Set for a collection's fragment: what kind of note it is (`decision`, `research`, `project`,
   * `handoff`, `conversation`, `progress`, `note`), from its frontmatter or its path.
   */
  contentType?: string;
}

/** Input of `Memory.store`. Identity is `(namespace, key)`; storing again is an upsert. */
export interface StoreInput {
  /**
   * 1..1,024 characters (at most 1,536 UTF-8 bytes), not blank, no control characters, no lone
   * surrogates; compared exactly (docs/input-rules.md).
   */
  key: string;
  /** 1 character .. 4 MiB of text, no NUL, well-formed UTF-16. */
  content: string;
  /** Defaults to `core`. */
  category?: Category;
  /**
   * Defaults to `"default"`. Any text of 1..256 characters without control characters (emails,
   * `tenant:project`, non-ASCII names), compared exactly: no case folding or normalization.
   */
  namespace?: string;
  /** 1..256 characters, not blank, no control characters. */
  sessionId?: string;
  /** 0..1. */
  importance?: number;
  /** A precomputed embedding (its length must match the backend's provider dimensions). */
  embedding?: number[];
}

/** One entry for `Memory.importEntries`: a `MemoryEntry` whose bookkeeping fields are optional. */
export interface ImportEntry extends StoreInput {
  id?: string;
  createdAt?: string;
  updatedAt?: string;
  supersededBy?: string;
  supersessionRecord?: SupersessionRecord;
  conflictRecord?: ConflictRecord;
  /** Outgoing relations (export format 2); lines of format 1 have none and import unchanged. */
  relations?: ImportRelation[];
  pinned?: boolean;
  snoozedUntil?: string;
  usage?: UsageRecordExport;
}

/** Filters shared by list, count, export and recall. Every filter is applied before limits. */
export interface EntryFilter {
  /** Defaults to `"default"` (export: all namespaces). */
  namespace?: string;
  sessionId?: string;
  categories?: Category[];
  /** Inclusive lower bound on `updatedAt`: RFC 3339 (`2026-01-31T12:00:00Z`) or `YYYY-MM-DD`. */
  since?: string;
  /** Exclusive upper bound on `updatedAt`: RFC 3339 (`2026-01-31T12:00:00Z`) or `YYYY-MM-DD`. */
  until?: string;
  /** Include entries marked superseded. Default false (export: true). */
  includeSuperseded?: boolean;
}

/** Options of `Memory.recall`. */
export interface RecallOptions extends EntryFilter {
  /** Maximum results; default 5. `0` returns nothing. */
  limit?: number;
  /** Default `hybrid` (or the configured `search_mode`). */
  mode?: SearchMode;
  /** Drop results whose score is below this; default the configured `min_score` (0.3). `0` keeps all. */
  minScore?: number;
  /** Return each result's embedding. */
  withEmbeddings?: boolean;
  /**
   * Which collections (folders of notes indexed beside memory) are searched with memory:
   * `true` or unset, every collection of the namespace; `false`, memory only; a list, those
   * collections only (memory is always searched).
   */
  collections?: boolean | string[];
  /** Include entries snoozed now (`Memory.snooze`); default false. */
  includeSnoozed?: boolean;
  /**
   * Record the results as surfaced and give the recall a `recallId` (default the configured
   * `usage_tracking`, true). A recall made for a person (the inspector) says false.
   */
  track?: boolean;
  signal?: AbortSignal;
}

/**
 * What `Memory.recall` returns: the results, best first, and the `recallId` to give
 * `Memory.feedback` (absent when the recall was not tracked).
 */
export type RecallResults = MemoryEntry[] & { recallId?: string };

/** Options of `Memory.list`: newest first by `updatedAt`. */
export interface ListOptions extends EntryFilter {
  /** Default 100. */
  limit?: number;
  offset?: number;
  withEmbeddings?: boolean;
}

/** Options of `Memory.count`; agrees with `list` on what is counted. */
export type CountOptions = EntryFilter;

/** Filter of `Memory.export`. `namespace` unset means every namespace. */
export interface ExportFilter extends EntryFilter {
  withEmbeddings?: boolean;
}

/** Options of single-key operations. */
export interface KeyOptions {
  /** Defaults to `"default"`. */
  namespace?: string;
}

/** Options of `Memory.get`. */
export interface GetOptions extends KeyOptions {
  withEmbedding?: boolean;
}
