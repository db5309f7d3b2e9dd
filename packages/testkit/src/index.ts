export { InMemoryStore } from "@memory/core";
export { type ChatReply, type ChatRequest, ChatServer, gate } from "./chat-server.js";
export {
  CONFORMANCE_FEATURES,
  type ConformanceFeature,
  type ConformanceGroup,
  type ConformanceOptions,
  type EmbeddingJobOptions,
  type FactoryContext,
  type SharedStore,
} from "./conformance-options.js";
export {
  declarationProblems,
  declares,
  requireFeature,
  UnmetDeclarationError,
  undeclaredCapabilities,
} from "./declarations.js";
export { recallFilter } from "./driver-fixtures.js";
export { gatedEmbedder } from "./gated-embedder.js";
export { bulkDeleteGroup } from "./groups/bulk-delete.js";
export { closeGroup } from "./groups/close.js";
export { concurrencyGroup } from "./groups/concurrency.js";
export { conflictsGroup } from "./groups/conflicts.js";
export { conversationContextGroup } from "./groups/conversation-context.js";
export { crudGroup } from "./groups/crud.js";
export { deferredEmbeddingGroup } from "./groups/deferred-embedding.js";
export { degradedRecallGroup } from "./groups/degraded-recall.js";
export { earlyReturnGroup } from "./groups/early-return.js";
export { exportImportGroup } from "./groups/export-import.js";
export { filtersGroup } from "./groups/filters.js";
export { historyGroup } from "./groups/history.js";
export { hostileInputsGroup } from "./groups/hostile-inputs.js";
export { keywordRecallGroup } from "./groups/keyword-recall.js";
export { leasesGroup } from "./groups/leases.js";
export { listCountGroup } from "./groups/list-count.js";
export { multiProcessLeasesGroup } from "./groups/multi-process-leases.js";
export { purgeGroup } from "./groups/purge.js";
export { recallOrderGroup } from "./groups/recall-order.js";
export { recallScoresGroup } from "./groups/recall-scores.js";
export { recallTraceGroup } from "./groups/recall-trace.js";
export { relationsGroup } from "./groups/relations.js";
export { supersessionGroup } from "./groups/supersession.js";
export { textLanguageGroup } from "./groups/text-language.js";
export { usageGroup } from "./groups/usage.js";
export { vectorRecallGroup } from "./groups/vector-recall.js";
export {
  type HostileCase,
  type HostileExpectation,
  hostileCategories,
  hostileContents,
  hostileEmbeddings,
  hostileKeys,
  hostileNamespaces,
  hostileQueries,
} from "./hostile-inputs.js";
export { manualSleep } from "./manual-sleep.js";
export {
  createInMemoryMemory,
  InMemoryMemory,
  type InMemoryMemoryOptions,
} from "./reference/in-memory-memory.js";
export { conformanceGroups, GROUP_FEATURE, runConformanceSuite } from "./run-conformance.js";
export { gaussian, seededRandom } from "./seeded-random.js";
export {
  createTestEmbedder,
  TEST_SYNONYMS,
  type TestEmbedder,
  type TestEmbedderOptions,
} from "./test-embedder.js";
