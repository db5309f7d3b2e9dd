export {
  AUTOSAVE_REPLY_CHARS,
  type AutosaveSkip,
  type AutosaveTurnInput,
  type AutosaveTurnOptions,
  type AutosaveTurnResult,
  autosaveKey,
  autosaveTurn,
} from "./autosave-turn.js";
export {
  type CompleteJsonOptions,
  type CompleteJsonResult,
  completeJson,
} from "./chat-json.js";
export { ChatOutputError, type ChatTask } from "./chat-output-error.js";
export {
  addCollection,
  type CollectionInput,
  collectionsFromConfig,
  listCollections,
  resolveCollection,
  storedCollection,
} from "./collections/collection-definitions.js";
export {
  compileCollectionPattern,
  DEFAULT_COLLECTION_PATTERN,
} from "./collections/collection-glob.js";
export type {
  CollectionProblem,
  CollectionProblemCode,
  CollectionSyncReport,
} from "./collections/collection-types.js";
export {
  CollectionWatcher,
  type CollectionWatcherOptions,
  WATCH_DEBOUNCE_MS,
  WATCH_REFRESH_MS,
  type WatchTimer,
} from "./collections/collection-watcher.js";
export { CONTENT_TYPES, type ContentType, parseFrontmatter } from "./collections/frontmatter.js";
export {
  removeCollection,
  type SyncCollectionsOptions,
  syncCollections,
} from "./collections/manage-collections.js";
export {
  MAX_FRAGMENT_CHARS,
  MIN_FRAGMENT_CHARS,
  type NoteFragment,
  noteFragments,
} from "./collections/note-fragments.js";
export { contentTypeFromPath, noteTitle } from "./collections/note-metadata.js";
export { MAX_NOTE_BYTES } from "./collections/read-note.js";
export {
  type SyncCollectionOptions,
  syncCollection,
  syncLeaseName,
} from "./collections/sync-collection.js";
export { isSkippedSegment, SKIPPED_SEGMENTS } from "./collections/walk-notes.js";
export {
  type ConfiguredJobsOptions,
  configuredJobs,
  JOB_NAMES,
  jobIntervals,
  SNAPSHOT_JOB,
  TRANSCRIPTS_JOB,
  transcriptDir,
} from "./configured-jobs.js";
export {
  CONSOLIDATION_DEFAULTS,
  type ConsolidateTurnInput,
  type ConsolidateTurnOptions,
  type ConsolidationReport,
  consolidateTurn,
  dailyKey,
} from "./consolidate-turn.js";
export {
  discoveryQuery,
  HISTORY_MAX_CHARS,
  HISTORY_MESSAGES,
  HISTORY_WINDOW_MS,
} from "./context-query.js";
export type {
  ContextRecallPurpose,
  MemoryContextTrace,
  MemoryContextTraceSettings,
} from "./context-trace.js";
export {
  CURATE_JOB,
  CURATOR_SYSTEM_PROMPT,
  type CuratedGroup,
  type CurateOptions,
  type CurateReport,
  type CurateTotals,
  type CuratorProposal,
  checkProposal,
  curate,
  curatorProposalSchema,
} from "./curator.js";
export { durableFacts } from "./durable-facts.js";
export {
  type EndSessionOptions,
  type EndSessionResult,
  endSession,
  extractSummary,
  SESSION_SUMMARY_PROMPT,
} from "./end-session.js";
export {
  type HydrateOptions,
  type HydrateReport,
  hydrateFromSnapshot,
  hydrationMarkerPath,
  shouldAutoHydrate,
} from "./hydrate.js";
export {
  HYGIENE_JOB,
  type HygieneReport,
  type HygieneRow,
  type HygieneSettings,
  type RunHygieneOptions,
  runHygiene,
} from "./hygiene.js";
export {
  type KnowledgeGraph,
  type KnowledgeGraphOptions,
  knowledgeGraph,
} from "./knowledge-graph/knowledge-graph.js";
export {
  isPredicate,
  isSingleValued,
  type ModelTriple,
  PREDICATE_NAMES,
  PREDICATES,
  type Predicate,
} from "./knowledge-graph/predicates.js";
export {
  parseTriple,
  readTriples,
  type StoredTriple,
  type TripleRecord,
  tripleKey,
} from "./knowledge-graph/triple-record.js";
export {
  emptyTripleReport,
  type TripleInput,
  type TripleReport,
  writeTriples,
} from "./knowledge-graph/write-triples.js";
export {
  buildMemoryContext,
  MEMORY_CONTEXT_DEFAULTS,
  MEMORY_CONTEXT_HEADER,
  type MemoryContext,
  type MemoryContextOptions,
  memoryContextOptionsFromConfig,
  NEAR_DUPLICATE_JACCARD,
} from "./memory-context.js";
export {
  DRY_RUN_PREVIEWS,
  exchangeKey,
  MAX_MESSAGE_CHARS,
  MAX_RECORD_BYTES,
  MINE_FORMATS,
  type MinedEntryPreview,
  type MineFormat,
  type MineOptions,
  type MineReport,
  type MineSkip,
  type MineSkipCode,
  mineConversations,
  SYNTHESIS_KINDS,
  SYNTHESIS_SYSTEM_PROMPT,
  SYNTHESIS_TRIPLES_SYSTEM_PROMPT,
  type SynthesisReport,
  synthesizedFactKey,
} from "./mine/index.js";
export {
  type ExtractedFact,
  extractedFactsSchema,
  FACT_KINDS,
  type FactKind,
  factKey,
  REMEMBER_SYSTEM_PROMPT,
  REMEMBER_TRIPLES_SYSTEM_PROMPT,
  type RememberOptions,
  type RememberResult,
  type RememberTurn,
  remember,
} from "./remember.js";
export {
  defaultLeaseHolder,
  JobScheduler,
  type JobSchedulerOptions,
  type JobStatus,
  jobStatusFromState,
  type ScheduledJob,
  type SchedulerLogger,
  type SchedulerSleep,
  type TickOutcome,
} from "./scheduler.js";
export {
  appendTranscript,
  type PruneTranscriptsReport,
  pruneTranscripts,
  readTranscript,
  SESSIONS_DIR,
  TRANSCRIPT_LINE_TYPES,
  type TranscriptLine,
  transcriptPath,
  validateSessionId,
} from "./session-transcript.js";
export {
  SNAPSHOT_FILE_NAME,
  type SnapshotReport,
  type WriteSnapshotOptions,
  writeSnapshot,
} from "./snapshot-job.js";
export { isContentless, isQuestion } from "./turn-text.js";
