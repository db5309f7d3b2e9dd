import type { RecallStages, RetrievalSettings } from "@memory/api";
import { Adjacency, contextLifts } from "./conversation-context.js";
import type { Candidate } from "./recall-candidates.js";
import type { RecallFilter } from "./recall-request.js";
import { compareKeys } from "./recall-results.js";

/**
 * How many of the best candidates bring their session neighbours into the candidates. 5, 10,
 * 20 and 40 gave the same LoCoMo numbers within 0.3 points; each anchor costs one lookup.
 */
const CONTEXT_ANCHORS = 10;

/**
 * Conversational context (conversation-context.ts): the session neighbours of the best
 * candidates join `list` (their parts measured by `measure`, like any other candidate's), then
 * every candidate's relevance is raised by its context. Off when both weights are 0.
 */
export async function addContext(
  list: Candidate[],
  filter: RecallFilter,
  settings: RetrievalSettings,
  stages: RecallStages,
  measure: (found: Candidate[]) => Promise<void>,
): Promise<void> {
  const weights = {
    neighborWeight: settings.contextNeighborWeight,
    sessionWeight: settings.contextSessionWeight,
  };
  if (weights.neighborWeight <= 0 && weights.sessionWeight <= 0) return;
  const adjacency = new Adjacency();
  if (weights.neighborWeight > 0 && stages.neighbors) {
    const anchors = list
      .filter((c) => c.entry.sessionId !== undefined && c.relevance > 0)
      .sort((a, b) => b.relevance - a.relevance || compareKeys(a.entry, b.entry))
      .slice(0, CONTEXT_ANCHORS);
    if (anchors.length > 0) {
      const neighbors = await stages.neighbors(
        anchors.map((c) => c.entry.id),
        filter,
      );
      const known = new Set(list.map((c) => c.entry.id));
      const found: Candidate[] = [];
      for (const [id, hits] of neighbors) {
        for (const hit of hits) {
          adjacency.add(id, hit.entry.id);
          if (known.has(hit.entry.id)) continue;
          known.add(hit.entry.id);
          found.push({ entry: hit.entry, terms: hit.terms, relevance: 0 });
        }
      }
      if (found.length > 0) {
        await measure(found);
        list.push(...found);
      }
    }
  }
  const lifts = contextLifts(list, adjacency, weights);
  for (const candidate of list) {
    const lift = lifts.get(candidate.entry.id);
    if (lift === undefined) continue;
    candidate.context = lift;
    candidate.relevance = Math.min(1, candidate.relevance + lift);
  }
}
