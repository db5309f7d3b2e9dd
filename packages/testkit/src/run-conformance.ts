import { describe, expect, it } from "vitest";
import type {
  ConformanceFeature,
  ConformanceGroup,
  ConformanceOptions,
} from "./conformance-options.js";
import {
  declarationProblems,
  declares,
  undeclared,
  undeclaredCapabilities,
} from "./declarations.js";
import { useInstances } from "./fixture.js";
import { bulkDeleteGroup } from "./groups/bulk-delete.js";
import { closeGroup } from "./groups/close.js";
import { concurrencyGroup } from "./groups/concurrency.js";
import { conflictsGroup } from "./groups/conflicts.js";
import { conversationContextGroup } from "./groups/conversation-context.js";
import { crudGroup } from "./groups/crud.js";
import { deferredEmbeddingGroup } from "./groups/deferred-embedding.js";
import { degradedRecallGroup } from "./groups/degraded-recall.js";
import { earlyReturnGroup } from "./groups/early-return.js";
import { exportImportGroup } from "./groups/export-import.js";
import { filtersGroup } from "./groups/filters.js";
import { historyGroup } from "./groups/history.js";
import { hostileInputsGroup } from "./groups/hostile-inputs.js";
import { keywordRecallGroup } from "./groups/keyword-recall.js";
import { leasesGroup } from "./groups/leases.js";
import { listCountGroup } from "./groups/list-count.js";
import { multiProcessLeasesGroup } from "./groups/multi-process-leases.js";
import { purgeGroup } from "./groups/purge.js";
import { recallOrderGroup } from "./groups/recall-order.js";
import { recallScoresGroup } from "./groups/recall-scores.js";
import { recallTraceGroup } from "./groups/recall-trace.js";
import { relationsGroup } from "./groups/relations.js";
import { supersessionGroup } from "./groups/supersession.js";
import { textLanguageGroup } from "./groups/text-language.js";
import { usageGroup } from "./groups/usage.js";
import { vectorRecallGroup } from "./groups/vector-recall.js";
import { createTestEmbedder } from "./test-embedder.js";

/** Every group, by name. */
export const conformanceGroups: Record<ConformanceGroup, (options: ConformanceOptions) => void> = {
  crud: crudGroup,
  keywordRecall: keywordRecallGroup,
  vectorRecall: vectorRecallGroup,
  filters: filtersGroup,
  listCount: listCountGroup,
  purge: purgeGroup,
  exportImport: exportImportGroup,
  supersession: supersessionGroup,
  history: historyGroup,
  close: closeGroup,
  hostileInputs: hostileInputsGroup,
  concurrency: concurrencyGroup,
  recallScores: recallScoresGroup,
  recallOrder: recallOrderGroup,
  earlyReturn: earlyReturnGroup,
  conversationContext: conversationContextGroup,
  textLanguage: textLanguageGroup,
  degradedRecall: degradedRecallGroup,
  bulkDelete: bulkDeleteGroup,
  leases: leasesGroup,
  conflicts: conflictsGroup,
  deferredEmbedding: deferredEmbeddingGroup,
  multiProcessLeases: multiProcessLeasesGroup,
  recallTrace: recallTraceGroup,
  relations: relationsGroup,
  usage: usageGroup,
};

/**
 * Groups that exist only for a feature: not registered at all unless it is declared. The other
 * groups run for every backend; their tests that need a feature are registered only when it is
 * declared (see each group).
 */
export const GROUP_FEATURE: Partial<Record<ConformanceGroup, ConformanceFeature>> = {
  concurrency: "sharedStore",
  earlyReturn: "vectorSearch",
  degradedRecall: "vectorSearch",
  deferredEmbedding: "deferredEmbedding",
  multiProcessLeases: "multiProcess",
};

/** The declarations test: registered first, its title names what is not run. */
function declarationsGroup(options: ConformanceOptions): void {
  const left = undeclared(options);
  const skippedGroups = (Object.keys(GROUP_FEATURE) as ConformanceGroup[]).filter((group) => {
    const feature = GROUP_FEATURE[group];
    return feature !== undefined && !declares(options, feature);
  });
  const notRun =
    left.length === 0
      ? "every feature declared"
      : `not declared, not run: ${left.join(", ")}${
          skippedGroups.length ? ` (groups ${skippedGroups.join(", ")})` : ""
        }`;
  describe(`${options.name}: declarations`, () => {
    const instances = useInstances(options);
    it(`declares ${options.supports.join(", ") || "nothing optional"}; ${notRun}`, async () => {
      expect(declarationProblems(options), "inconsistent declarations").toEqual([]);
      // Opened with an embedder, as the vector groups open it: every capability it then claims
      // must be declared, so that its group runs.
      const memory = await instances.create(createTestEmbedder());
      expect(
        undeclaredCapabilities(options, memory.capabilities),
        "declare every capability the backend claims",
      ).toEqual([]);
    });
  });
}

/**
 * Registers the whole conformance suite for one backend. Call it at the top of a vitest file.
 * Groups and tests of features the backend does not declare (`options.supports`) are not
 * registered; a declared one never skips (its tests fail when the precondition is missing).
 */
export function runConformanceSuite(options: ConformanceOptions): void {
  declarationsGroup(options);
  for (const [name, group] of Object.entries(conformanceGroups) as [
    ConformanceGroup,
    (options: ConformanceOptions) => void,
  ][]) {
    const feature = GROUP_FEATURE[name];
    if (feature !== undefined && !declares(options, feature)) continue;
    group(options);
  }
}
