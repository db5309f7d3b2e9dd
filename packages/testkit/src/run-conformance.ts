import type { ConformanceGroup, ConformanceOptions } from "./conformance-options.js";
import { bulkDeleteGroup } from "./groups/bulk-delete.js";
import { closeGroup } from "./groups/close.js";
import { concurrencyGroup } from "./groups/concurrency.js";
import { conflictsGroup } from "./groups/conflicts.js";
import { conversationContextGroup } from "./groups/conversation-context.js";
import { crudGroup } from "./groups/crud.js";
import { degradedRecallGroup } from "./groups/degraded-recall.js";
import { earlyReturnGroup } from "./groups/early-return.js";
import { exportImportGroup } from "./groups/export-import.js";
import { filtersGroup } from "./groups/filters.js";
import { historyGroup } from "./groups/history.js";
import { hostileInputsGroup } from "./groups/hostile-inputs.js";
import { keywordRecallGroup } from "./groups/keyword-recall.js";
import { leasesGroup } from "./groups/leases.js";
import { listCountGroup } from "./groups/list-count.js";
import { purgeGroup } from "./groups/purge.js";
import { recallOrderGroup } from "./groups/recall-order.js";
import { recallScoresGroup } from "./groups/recall-scores.js";
import { supersessionGroup } from "./groups/supersession.js";
import { textLanguageGroup } from "./groups/text-language.js";
import { vectorRecallGroup } from "./groups/vector-recall.js";

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
};

/**
 * Registers the whole conformance suite (every group) for one backend. Call it at the top of a
 * vitest file. Groups that need a capability the backend does not declare skip those tests.
 * `only` restricts to some groups; `skip` leaves some out (say why in the backend's README).
 */
export function runConformanceSuite(
  options: ConformanceOptions & { only?: ConformanceGroup[]; skip?: ConformanceGroup[] },
): void {
  for (const [name, group] of Object.entries(conformanceGroups) as [
    ConformanceGroup,
    (options: ConformanceOptions) => void,
  ][]) {
    if (options.only && !options.only.includes(name)) continue;
    if (options.skip?.includes(name)) continue;
    group(options);
  }
}
