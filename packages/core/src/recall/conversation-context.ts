import type { MemoryEntry } from "@memory/api";

/**
 * Conversational context: in a conversation, the turn that answers a question often does not
 * share its words; its neighbours do ("What did you paint?" / "A lake sunrise, last year"), and
 * the session where the topic came up holds the other turns about it. So an entry's relevance
 * is raised by the relevance of its context:
 *
 *   relevance = own + (1 - own) x min(1, neighborWeight x max(0, best adjacent - own)
 *                                       + sessionWeight x max(0, best other in session - own))
 *
 * - adjacent: the entries just before and after it in its session (same namespace and
 *   `sessionId`, by creation time, then write order);
 * - best other in session: the most relevant *other* candidate of the same session.
 *
 * Context only ever comes from other entries, and only as far as they beat the entry itself: an
 * entry alone in its session, without a session, or among equally weak matches (an unrelated
 * query) keeps its own relevance, so `min_score` keeps its meaning (docs/retrieval-quality.md,
 * "Thresholds"); the result stays in [0, 1] and never falls below the entry's own relevance.
 */

export interface ContextWeights {
  neighborWeight: number;
  sessionWeight: number;
}

/** A candidate as the context step sees it: an entry and its own relevance. */
export interface ContextCandidate {
  entry: MemoryEntry;
  relevance: number;
}

/** Undirected adjacency between entry ids (pairs of session neighbours). */
export class Adjacency {
  readonly #next = new Map<string, Set<string>>();

  add(a: string, b: string): void {
    if (a === b) return;
    this.#link(a, b);
    this.#link(b, a);
  }

  #link(from: string, to: string): void {
    const set = this.#next.get(from);
    if (set) set.add(to);
    else this.#next.set(from, new Set([to]));
  }

  of(id: string): ReadonlySet<string> {
    return this.#next.get(id) ?? EMPTY;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

const sessionOf = (entry: MemoryEntry) =>
  entry.sessionId === undefined ? undefined : `${entry.namespace}\u0000${entry.sessionId}`;

/**
 * The context lift of every candidate (what to add to its relevance), by entry id. Candidates
 * with nothing around them get 0.
 */
export function contextLifts(
  candidates: readonly ContextCandidate[],
  adjacency: Adjacency,
  weights: ContextWeights,
): Map<string, number> {
  // Each candidate's session key, built once (this runs for every candidate of every recall).
  const sessions = candidates.map((c) => sessionOf(c.entry));
  const indexOf = new Map<string, number>();
  candidates.forEach((c, index) => {
    indexOf.set(c.entry.id, index);
  });
  // The best and second-best relevance of each session: "best other" is the second for the best.
  const best = new Map<string, { first: number; firstId: string; second: number }>();
  candidates.forEach((c, index) => {
    const session = sessions[index];
    if (session === undefined) return;
    const current = best.get(session);
    if (!current) best.set(session, { first: c.relevance, firstId: c.entry.id, second: 0 });
    else if (c.relevance > current.first)
      best.set(session, { first: c.relevance, firstId: c.entry.id, second: current.first });
    else current.second = Math.max(current.second, c.relevance);
  });
  const lifts = new Map<string, number>();
  candidates.forEach((c, index) => {
    const session = sessions[index];
    if (session === undefined) return;
    const stats = best.get(session)!;
    const inSession = stats.firstId === c.entry.id ? stats.second : stats.first;
    let adjacent = 0;
    for (const id of adjacency.of(c.entry.id)) {
      const neighbor = indexOf.get(id);
      if (neighbor !== undefined && sessions[neighbor] === session)
        adjacent = Math.max(adjacent, candidates[neighbor]!.relevance);
    }
    // Only context more relevant than the entry itself counts: in a session of equally weak
    // matches (an unrelated query) nothing is lifted, which keeps thresholds meaningful.
    const context = Math.min(
      1,
      weights.neighborWeight * Math.max(0, adjacent - c.relevance) +
        weights.sessionWeight * Math.max(0, inSession - c.relevance),
    );
    const lift = (1 - c.relevance) * context;
    if (lift > 0) lifts.set(c.entry.id, lift);
  });
  return lifts;
}
