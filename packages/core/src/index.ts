export { AUTOSAVE_SKIP_PREFIXES, shouldAutosave } from "./algorithms/autosave-filter.js";
export { indexTokens } from "./algorithms/bm25.js";
export { type ChunkOptions, chunkMarkdown, type MarkdownChunk } from "./algorithms/chunker.js";
export {
  CONTRADICTION_FACTOR,
  CONTRADICTION_WEIGHTS,
  type ConflictInput,
  type ConflictMode,
  type ConflictResult,
  contradictionSignals,
  DEFAULT_CONFLICT_THRESHOLD,
  detectConflict,
} from "./algorithms/contradiction.js";
export { cosineSimilarity, l2Normalize } from "./algorithms/cosine.js";
export { ageInDays, DEFAULT_HALF_LIFE_DAYS, decayFactor } from "./algorithms/decay.js";
export { DEFAULT_RRF_K, rrfContribution } from "./algorithms/fusion.js";
export {
  baseImportance,
  CATEGORY_BASE_IMPORTANCE,
  computeImportance,
  HIGH_SIGNAL_WORDS,
} from "./algorithms/importance.js";
export { jaccardSimilarity, wordSet } from "./algorithms/jaccard.js";
export { porterStem } from "./algorithms/porter-stemmer.js";
export { RecallCache } from "./algorithms/recall-cache.js";
export {
  cjkBigrams,
  cjkIndexText,
  escapeLike,
  hasCjk,
  isMatchAllQuery,
  likeFallbackKeywords,
} from "./algorithms/search-terms.js";
export { ENGLISH_STOP_WORDS, isStopWord } from "./algorithms/stop-words.js";
export { recallWithCollections } from "./collections/collection-recall.js";
export {
  COLLECTIONS_JOB,
  type CollectionDefinition,
  contextFor,
  type IndexedNote,
  type JobStateAccess,
  MANIFEST_SHARDS,
  manifestJob,
  manifestShard,
  readManifest,
  readManifestShard,
  readStoredCollections,
  writeManifestShard,
  writeStoredCollections,
} from "./collections/collection-state.js";
export {
  COLLECTION_WRITER,
  type CollectionWriter,
  collectionWriterOf,
} from "./collections/collection-writer.js";
export type { ModuleLoader } from "./config/backend-module.js";
export {
  assertKnownTableKeys,
  CONFIG_TABLE_KEYS,
  CONFIG_TABLE_NAMES,
  type ConfigTableName,
} from "./config/config-tables.js";
export {
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
  type ConfiguredMemory,
  type ConfiguredProvider,
  describeConfiguredStore,
  EMBEDDINGS_DISABLED_REASON,
  type EmbeddingSupport,
  embeddingsDisabled,
  type OpenConfiguredMemoryOptions,
  openConfiguredMemory,
  resolveConfiguredProvider,
} from "./config/open-configured-memory.js";
export {
  configuredUnhonouredSettingWarnings,
  unhonouredSettingWarnings,
} from "./config/unhonoured-settings.js";
export {
  type CheckConflictsOptions,
  CONFIRM_TIMEOUT_MS,
  CONFLICT_CANDIDATES,
  CONFLICT_MAX_CHARS,
  type ConflictSettings,
  checkConflicts,
  conflictCategoryList,
  conflictCheckApplies,
  scoreConflictPair,
  withConflict,
} from "./conflicts/check-conflicts.js";
export { conflictQuery } from "./conflicts/conflict-query.js";
export {
  ATTRIBUTES,
  type AttributeDefinition,
  type Cardinality,
} from "./conflicts/facts/attribute-table.js";
export { decideConflict, type RuleDecision } from "./conflicts/facts/decide-conflict.js";
export { factReading } from "./conflicts/facts/fact-reading.js";
export { type Fact, readFact } from "./conflicts/facts/read-fact.js";
export {
  type SubjectPhrase,
  sameSubject,
  subjectText,
} from "./conflicts/facts/read-subject.js";
export { SubjectAliases } from "./conflicts/facts/subject-aliases.js";
export { kindsInText } from "./conflicts/facts/value-kinds.js";
export { differentSubjects, SELF_SUBJECT, textSubject } from "./conflicts/subject.js";
export { contentKey } from "./content-key.js";
export { planDeletion } from "./delete-plan.js";
export { assertCompleteDriver, InvalidDriverError } from "./driver-check.js";
export {
  EmbeddingWorker,
  type EmbeddingWorkerOptions,
  type PendingBatch,
  type PendingSource,
} from "./embedding-worker.js";
export {
  ENTITY_CATEGORY,
  ENTITY_KEY_PREFIX,
  entityKey,
  MENTIONS,
} from "./entities/entity-keys.js";
export { entityId, MAX_ENTITY_NAME_LENGTH } from "./entities/entity-name.js";
export {
  ENTITIES_READ_MAX,
  ENTITY_MENTIONS_MAX,
  type EntityOptions,
  type EntityReport,
  type EntitySummary,
  entityReport,
  type ListEntitiesOptions,
  listEntities,
} from "./entities/entity-queries.js";
export { type EntityMention, type MentionSource, readEntities } from "./entities/read-entities.js";
export { EXPORT_PAGE, LIST_LIMIT_MAX, TOP_CORE_DEFAULT, validateOffset } from "./entry-reads.js";
export {
  FACADE_DEFAULTS,
  type FacadeOptionSource,
  facadeOptionsFrom,
  type MemoryFacadeOptions,
  type ResolvedFacadeOptions,
  resolveFacadeOptions,
} from "./facade-options.js";
export { IMPORT_BATCH } from "./import-entries.js";
export {
  createInMemoryDriver,
  InMemoryDriver,
  type InMemoryDriverOptions,
} from "./in-memory/in-memory-driver.js";
export { compareFor } from "./in-memory/in-memory-order.js";
export { compareRelations } from "./in-memory/in-memory-relations.js";
export { InMemoryStore, type StoredRow } from "./in-memory/in-memory-store.js";
export { createMemoryFacade, MemoryFacade } from "./memory-facade.js";
export { NoneDriver } from "./none-driver.js";
export { NoneMemory } from "./none-memory.js";
export {
  entryMatchesFilter,
  type FilterPart,
  filterExclusion,
  InMemoryRecallStages,
  type InMemoryRow,
  type InMemoryStagesOptions,
} from "./recall/in-memory-stages.js";
export {
  type CachedStatistics,
  cachedStatistics,
  cachedStatisticsNow,
  KeywordStatisticsCache,
  STATISTICS_CACHE_MAX_TERMS,
  type StatisticsCorrection,
} from "./recall/keyword-statistics-cache.js";
export { RecallEngine, type RecallEngineOptions } from "./recall/recall-engine.js";
export { compareKeys, type ScoredCandidate } from "./recall/recall-results.js";
export { traceCandidate } from "./recall/recall-trace.js";
export {
  BM25_B,
  BM25_K1,
  combinedRelevance,
  inverseDocumentFrequency,
  KeywordScorer,
  LIKE_MAX_RELEVANCE,
  likeRelevance,
  SINGLE_PART_FLOOR,
  STOP_WORDS_ONLY_FACTOR,
  vectorRelevance,
} from "./recall/relevance.js";
export {
  DEFAULT_VECTOR_CALIBRATION,
  RETRIEVAL_SETTING_NAMES,
  resolveRetrievalSettings,
  resolveVectorCalibration,
  retrievalSettingsFromConfig,
} from "./recall/retrieval-settings.js";
export {
  KEYWORD_POOL_COVER,
  KEYWORD_POSTINGS_BUDGET,
  selectingTerms,
} from "./recall/term-selection.js";
export {
  analyzeQuery,
  analyzeText,
  countIndexedTerms,
  indexedTerms,
  MAX_INDEXED_TERMS_LENGTH,
  MAX_QUERY_TERMS,
  MAX_TERM_LENGTH,
  searchTerms,
  TEXT_LANGUAGES,
  termMatches,
} from "./recall/text-analyzer.js";
export {
  GRAPH_DEPTH_MAX,
  GRAPH_NODES_MAX,
  type RelationGraph,
  type RelationGraphNode,
  type RelationGraphOptions,
  relationGraph,
} from "./relations/relation-graph.js";
export {
  RESERVED_CATEGORIES,
  recallExclusions,
  TRIPLE_CATEGORY,
} from "./reserved-categories.js";
export { abortableSleep, type Sleep } from "./sleep.js";
export {
  encodeSnapshotMetadata,
  escapeSnapshotContent,
  escapeSnapshotKey,
  escapeSnapshotNamespace,
  formatSnapshot,
  formatSnapshotEntry,
  formatSnapshotHeader,
  formatSnapshotNamespace,
  SNAPSHOT_FORMAT_VERSION,
  SNAPSHOT_METADATA_CLOSE,
  SNAPSHOT_METADATA_OPEN,
  SNAPSHOT_NAMESPACE_PREFIX,
  SNAPSHOT_TITLE,
  type SnapshotHeaderOptions,
  type SnapshotMetadata,
  snapshotMetadata,
} from "./snapshot/format.js";
export {
  type HydrateOptions,
  type HydrateReport,
  hydrateFromSnapshot,
  hydrationMarkerPath,
  shouldAutoHydrate,
} from "./snapshot/hydrate.js";
export {
  type MetadataType,
  type ParsedSnapshot,
  parseMetadataComment,
  parseSnapshot,
  readEscaped as readSnapshotEscaped,
  type Scanned as SnapshotScanned,
  type SnapshotProblem,
  type SnapshotRecord,
} from "./snapshot/parse.js";
export {
  type SnapshotSourceOptions,
  type SnapshotWriteSummary,
  writeSnapshotText,
} from "./snapshot/snapshot-chunks.js";
export { configuredSnapshotPath, SNAPSHOT_FILE_NAME } from "./snapshot/snapshot-path.js";
// A driver that applies surfaced events later (`DriverUsage.surface`) computes them as the facade does.
export { applyUsageEvents } from "./usage/usage-stats.js";
export { embedChecked } from "./vector-state.js";
