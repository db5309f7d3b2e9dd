import type { MergeStrategy, SearchMode } from "./memory-entry.js";

/**
 * The language rules of the analyzer (`text_language`): `english` stems words with Porter and
 * drops English stop words from queries; `none` keeps every word as typed (folded only). CJK
 * bigrams, case and diacritic folding are the same in both. A store's index terms are written
 * with its language; opening it with another one rebuilds them (each backend keeps the
 * language it indexed with).
 */
export type TextLanguage = "english" | "none";

/** Where cosine similarity starts to count and where it counts fully. */
export interface VectorCalibration {
  floor: number;
  full: number;
}

/**
 * The retrieval settings of every backend, in the camelCase the library options use. One
 * schema (the `[memory]` table of memory.toml) gives their defaults and their limits, so a
 * backend, the reference backend and `createMemoryFromConfig` cannot drift apart.
 */
export interface RetrievalSettings {
  /** `search_mode`: default recall mode. */
  searchMode: SearchMode;
  /** `text_language`: the analyzer's language rules (stemming and stop words, or none). */
  textLanguage: TextLanguage;
  /** `merge_strategy`: `weighted` orders by relevance, `rrf` by rank fusion. */
  mergeStrategy: MergeStrategy;
  /** `rrf_k`. */
  rrfK: number;
  /** `vector_weight` in the relevance of hybrid results. */
  vectorWeight: number;
  /** `keyword_weight` in the relevance of hybrid results. */
  keywordWeight: number;
  /** `fts_early_return_score` (1 = never skip the vector stage). */
  ftsEarlyReturnScore: number;
  /** `candidate_multiplier`: candidates per stage = limit x this. */
  candidateMultiplier: number;
  /** `context_neighbor_weight`: lift from the best adjacent entry of the same session. */
  contextNeighborWeight: number;
  /** `context_session_weight`: lift from the best other match of the same session. */
  contextSessionWeight: number;
  /** `question_entry_penalty`: a question counts this much less for an entry ending with one. */
  questionEntryPenalty: number;
  /** `temporal_boost`: a "when" question counts this much more for an entry mentioning a time. */
  temporalBoost: number;
  /** `speaker_boost`: an entry whose speaker label the query names counts this much more. */
  speakerBoost: number;
  /** `half_life_days` of non-core decay. */
  halfLifeDays: number;
  /** `recall_cache_size` (0 disables the hot cache). */
  recallCacheSize: number;
  /** `recall_cache_ttl_seconds`. */
  recallCacheTtlSeconds: number;
  /**
   * `history_versions`: earlier contents a same-key store keeps per key (0 keeps none; at most
   * 100; default 20).
   */
  historyVersions: number;
  /** `min_score`: default relevance threshold of recall. */
  minScore: number;
  /** `vector_relevance_floor`: cosine where vector relevance starts (unset: the provider's). */
  vectorRelevanceFloor?: number | undefined;
  /** `vector_relevance_full`: cosine where vector relevance reaches 1 (unset: the provider's). */
  vectorRelevanceFull?: number | undefined;
  /**
   * `conflict_mode`: conflict detection on store: `rules` (default: facts read and compared),
   * `off`; `jaccard` and `combined` are accepted and mean `rules` (their scores are evidence).
   */
  conflictMode: "off" | "rules" | "jaccard" | "combined";
  /** `conflict_threshold`: the similarity above which `text_language = "none"` supersedes. */
  conflictThreshold: number;
  /**
   * `conflict_policy`: `supersede` (default) hides the older entry, `flag` only records it,
   * `link` keeps both and joins them with a `contradicts` relation (new -> old).
   */
  conflictPolicy: "supersede" | "flag" | "link";
  /** `conflict_confirm`: `off` (default) or `chat` (a chat model confirms close decisions). */
  conflictConfirm: "off" | "chat";
  /** `conflict_confirm_timeout_ms`: longest wait for the model; then the rules decide. */
  conflictConfirmTimeoutMs: number;
  /** `conflict_categories`: comma-separated categories checked on store (default `core`). */
  conflictCategories: string;
  /**
   * `entity_reading`: each stored entry's named people, places, organisations and products are
   * read (no model) and joined to one `entity` entry per name with a `mentions` relation
   * (backends with relations only; docs/entities.md).
   */
  entityReading: boolean;
  /**
   * `graph_expansion`: recall follows the relations of its best candidates (depth 2, at most 30
   * entries) for questions that ask why/how or name an entity, and says so in `explain.graph`.
   */
  graphExpansion: boolean;
  /** `usage_tracking`: recalls get a `recallId` and record what they surfaced. */
  usageTracking: boolean;
  /** `usage_store_queries`: usage events keep the query text (default a hash). */
  usageStoreQueries: boolean;
  /** `usage_event_retention_days`: hygiene prunes usage events older than this. */
  usageEventRetentionDays: number;
  /** `usage_event_max`: at most this many usage events are kept. */
  usageEventMax: number;
  /** `pin_boost`: relevance added to a pinned entry's (capped at 1). */
  pinBoost: number;
  /** `usage_half_life_factor`: how far use may stretch an entry's decay half-life (1 = off). */
  usageHalfLifeFactor: number;
}
