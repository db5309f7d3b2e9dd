export { AUTOSAVE_SKIP_PREFIXES, shouldAutosave } from "./algorithms/autosave-filter.js";
export { type Bm25Document, bm25Search, indexTokens } from "./algorithms/bm25.js";
export { type ChunkOptions, chunkMarkdown, type MarkdownChunk } from "./algorithms/chunker.js";
export {
  CONTRADICTION_FACTOR,
  CONTRADICTION_WEIGHTS,
  type ConflictInput,
  type ConflictMode,
  type ConflictResult,
  type ContradictionSignals,
  contradictionSignals,
  DEFAULT_CONFLICT_THRESHOLD,
  detectConflict,
} from "./algorithms/contradiction.js";
export { cosineSimilarity, l2Normalize } from "./algorithms/cosine.js";
export { ageInDays, DEFAULT_HALF_LIFE_DAYS, decayFactor } from "./algorithms/decay.js";
export {
  DEFAULT_KEYWORD_WEIGHT,
  DEFAULT_RRF_K,
  DEFAULT_VECTOR_WEIGHT,
  type FusedCandidate,
  fuseRrf,
  fuseWeighted,
  type KeywordHit,
  keywordOnly,
  keywordRelevance,
  rrfContribution,
  type VectorHit,
  vectorOnly,
} from "./algorithms/fusion.js";
export {
  baseImportance,
  CATEGORY_BASE_IMPORTANCE,
  computeImportance,
  HIGH_SIGNAL_WORDS,
} from "./algorithms/importance.js";
export { jaccardSimilarity, wordSet } from "./algorithms/jaccard.js";
export { RecallCache } from "./algorithms/recall-cache.js";
export {
  type FinalizeOptions,
  finalizeRecall,
  type RankableEntry,
} from "./algorithms/recall-ranking.js";
export {
  buildFts5Query,
  cjkBigrams,
  cjkIndexText,
  escapeLike,
  extractSearchTerms,
  hasCjk,
  isMatchAllQuery,
  likeFallbackKeywords,
  MAX_QUERY_TERMS,
  type SearchTerm,
} from "./algorithms/search-terms.js";
export {
  MEMORY_SETTING_KEYS,
  type MemoryConfig,
  type MemorySettings,
  memorySettingsSchema,
} from "./config/config-schema.js";
export {
  type BackendContext,
  type BackendModule,
  type CreateMemoryOptions,
  createMemory,
} from "./config/create-memory.js";
export {
  defaultConfig,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  type SettingSource,
} from "./config/load-config.js";
export {
  BackendUnavailableError,
  ConfigError,
  ConflictError,
  EmbeddingError,
  InvalidInputError,
  MemoryClosedError,
  MemoryError,
  type MemoryErrorCode,
  type MemoryErrorOptions,
  MemoryTimeoutError,
  NotFoundError,
  UnsupportedOperationError,
} from "./errors.js";
export { NoneMemory } from "./none-memory.js";
export type {
  ChatMessage,
  ChatModel,
  CompleteOptions,
} from "./types/chat-model.js";
export {
  type EmbeddingProvider,
  type EmbeddingPurpose,
  type EmbedOptions,
  embeddingFingerprint,
} from "./types/embedding-provider.js";
export type {
  BackfillOptions,
  Capabilities,
  EmbeddingJobReport,
  FlushOptions,
  HealthReport,
  ImportOptions,
  ImportRejection,
  ImportReport,
  Memory,
  Progress,
  ReindexOptions,
} from "./types/memory.js";
export {
  type BuiltInCategory,
  type Category,
  type CountOptions,
  DEFAULT_NAMESPACE,
  type EntryFilter,
  type ExportFilter,
  type GetOptions,
  type ImportEntry,
  type KeyOptions,
  type ListOptions,
  type MemoryEntry,
  type MergeStrategy,
  type RecallExplain,
  type RecallOptions,
  type SearchMode,
  type StoreInput,
} from "./types/memory-entry.js";
export {
  CUSTOM_CATEGORY_PATTERN,
  isBuiltInCategory,
  MAX_CONTENT_LENGTH,
  MAX_KEY_LENGTH,
  MAX_SESSION_ID_LENGTH,
  NAME_PATTERN,
  type NormalizedFilter,
  type NormalizedImportEntry,
  type NormalizedStoreInput,
  normalizeFilter,
  normalizeImportEntry,
  normalizeStoreInput,
  normalizeTimestamp,
  nowIso,
  validateCategory,
  validateContent,
  validateEmbedding,
  validateImportance,
  validateKey,
  validateLimit,
  validateNamespace,
  validateSessionId,
} from "./validation.js";
