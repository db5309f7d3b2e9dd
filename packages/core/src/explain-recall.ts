import {
  type ExplainRecallOptions,
  isCollectionKey,
  type MemoryEntry,
  type RecallTrace,
  validateKey,
} from "@memory/api";
import {
  type CollectionRecallParts,
  recallWithCollections,
} from "./collections/collection-recall.js";
import * as reads from "./entry-reads.js";
import type { FacadeContext } from "./facade-context.js";
import { traceCandidate } from "./recall/recall-trace.js";
import { focusVerdict } from "./recall/trace-assembly.js";

const emptyFilter = {
  sessionId: undefined,
  categories: undefined,
  since: undefined,
  until: undefined,
  includeSuperseded: true,
};

/**
 * `Memory.explainRecall`: the engine's trace of the recall, run through the same collections
 * choice as `recall` (`recallWithCollections`), so that `results` is exactly what `recall`
 * returns. A candidate the engine kept that the choice then left out (a fragment of a collection
 * not searched, or one more than the limit after that) is dropped as `filtered`/`over_limit`.
 * Entries a driver adds from outside the store (`supplementRecall`: lucid) are not traced.
 */
export async function explainRecall(
  context: FacadeContext,
  parts: CollectionRecallParts,
  query: string,
  options: ExplainRecallOptions,
): Promise<RecallTrace> {
  const { key, ...recallOptions } = options;
  const focused =
    key === undefined
      ? undefined
      : {
          key: validateKey(key),
          entry: await reads.getEntry(context, key, {
            ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
          }),
        };
  let last: RecallTrace | undefined;
  const results = await recallWithCollections(
    async (text, engineOptions) => {
      last = await context.engine.trace(text, engineOptions, focused);
      return last.results;
    },
    parts,
    query,
    recallOptions,
  );
  // An empty choice (no category left to search) runs no recall at all.
  const trace = last ?? (await context.engine.trace(query, { ...recallOptions, limit: 0 }));
  if (trace.results === results) return trace;
  const final = new Set(results.map((entry) => entry.key));
  const candidates = trace.candidates.map((candidate) => {
    if (!candidate.kept || final.has(candidate.key)) return candidate;
    const entry = trace.results.find((result) => result.key === candidate.key) as MemoryEntry;
    return isCollectionKey(candidate.key)
      ? traceCandidate(entry, false, "filtered", "a collection the collections option leaves out")
      : traceCandidate(entry, false, "over_limit", "past the limit once collections were left out");
  });
  // Kept candidates as the results carry them (with `source`), in result order.
  const byKey = new Map(results.map((entry) => [entry.key, entry]));
  const kept = results.map((entry) => traceCandidate(entry, true));
  const rest = candidates.filter((candidate) => !byKey.has(candidate.key));
  const reconciled: RecallTrace = {
    ...trace,
    stages: [
      ...trace.stages,
      { name: "collections", count: results.length, detail: "the collections option applied" },
    ],
    candidates: [...kept, ...rest],
    results,
  };
  // A focused key that was a candidate gets its verdict again (the choice may have dropped it).
  if (trace.focus?.candidate && focused)
    reconciled.focus = await focusVerdict(reconciled.candidates, undefined, {
      ...focused,
      stages: context.driver.recallStages,
      calibration: { floor: 0, full: 1 },
      language: context.engine.settings.textLanguage,
      filter: { ...emptyFilter, namespace: trace.namespace },
      mode: trace.settings.mode,
      degraded: trace.degraded,
    });
  return reconciled;
}
