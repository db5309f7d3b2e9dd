import type { MemoryEntry, RecallGraphExplain, Relation } from "@memory/api";
import { lookupTable } from "../algorithms/lookup-table.js";
import { ENTITY_CATEGORY, ENTITY_KEY_PREFIX, MENTIONS } from "../entities/entity-keys.js";
import { readEntities } from "../entities/read-entities.js";
import { entryMatchesFilter } from "./in-memory-stages.js";
import type { Candidate } from "./recall-candidates.js";
import type { RecallFilter } from "./recall-request.js";
import { compareKeys } from "./recall-results.js";
import { indexedTerms } from "./text-analyzer.js";

/** What graph expansion reads: edges of keys (both directions) and entries by key. */
export interface GraphAccess {
  edges(namespace: string, keys: readonly string[], limit: number): Promise<Relation[]>;
  read(namespace: string, keys: readonly string[]): Promise<(MemoryEntry | null | undefined)[]>;
}

/** The best candidates whose edges are followed. */
const SEEDS = 10;
/** Steps from a seed (an entity is a step: entry -> entity -> entry is 2). */
const DEPTH = 2;
/** Entries and entities visited beyond the seeds, at most (the beam)... */
const MAX_NODES = 30;
/** ...of which the first step may take this many, so the second step has room. */
const FIRST_STEP_NODES = 10;
/** Edges read per step, at most (a speaker's entity can hold thousands). */
const EDGES_PER_STEP = 5000;
/**
 * The most a relevance is raised by the graph: it joins, it does not replace, the search. On
 * LoCoMo 0.3 lost 2-3 points everywhere, 0.1 and 0.05 stayed within a point of no expansion
 * (docs/retrieval-quality.md).
 */
export const GRAPH_WEIGHT = 0.1;

/** How much each relation type carries (custom types: CUSTOM_WEIGHT). */
const TYPE_WEIGHTS = lookupTable<number>({
  causes: 1,
  derived_from: 0.8,
  supports: 0.8,
  semantic: 0.7,
  follows: 0.6,
  contradicts: 0.6,
  mentions: 1,
});
const CUSTOM_WEIGHT = 0.5;

const ASKS_WHY =
  /\b(why|how come|what led|led to|lead to|caused?|because|reason|result(ed)? in)\b/iu;

/** Whether a query is one graph expansion answers: it asks why/what led to, or names an entity. */
export function asksGraph(query: string): boolean {
  return ASKS_WHY.test(query) || readEntities(query).length > 0;
}

/** One seed's path to a node: its score, its first edge's type, the entity it went through. */
interface Path {
  score: number;
  type?: string;
  through?: string;
}

interface Reach {
  score: number;
  via: RecallGraphExplain["via"];
}

/**
 * An entity's weight as a bridge: ln(N / degree) / ln(N), so a name in every entry (a speaker)
 * carries nearly nothing and a name two entries share carries nearly all.
 */
function bridgeWeight(degree: number, documents: number): number {
  const total = Math.max(documents, degree + 1, 2);
  return Math.max(0, Math.log(total / Math.max(degree, 1)) / Math.log(total));
}

/**
 * Follows relations from the best candidates: a bounded beam (depth 2, at most 30 nodes), each
 * reached entry scored by its seed's relevance x the edge type's weight x the edge's weight (x
 * an entity's bridge weight when reached through one). Reached entries already in `list` are
 * raised by GRAPH_WEIGHT x that score; new ones join `list` (their own parts measured by
 * `measure`), then are raised the same way. Returns the entries added or raised.
 */
export async function expandGraph(
  list: Candidate[],
  filter: RecallFilter,
  documents: number,
  graph: GraphAccess,
  measure: (found: Candidate[]) => Promise<void>,
): Promise<number> {
  const namespace = filter.namespace;
  const seeds = list
    .filter((c) => c.relevance > 0 && c.entry.category !== ENTITY_CATEGORY)
    .sort((a, b) => b.relevance - a.relevance || compareKeys(a.entry, b.entry))
    .slice(0, SEEDS);
  if (seeds.length === 0) return 0;
  const visited = new Set(seeds.map((seed) => seed.entry.key));
  // Each frontier node: per seed it was reached from (its origin), the score and the entity the
  // path went through, so a seed is never raised by its own path.
  let frontier = new Map<string, Map<string, Path>>(
    seeds.map((seed) => [seed.entry.key, new Map([[seed.entry.key, { score: seed.relevance }]])]),
  );
  const reached = new Map<string, Reach>();
  let nodes = 0;
  for (let depth = 1; depth <= DEPTH && frontier.size > 0 && nodes < MAX_NODES; depth++) {
    const edges = await graph.edges(namespace, [...frontier.keys()], EDGES_PER_STEP);
    const degree = new Map<string, number>();
    for (const edge of edges) {
      if (edge.type !== MENTIONS) continue;
      degree.set(edge.to, (degree.get(edge.to) ?? 0) + 1);
    }
    const next = new Map<string, Map<string, Path> & { via?: Reach["via"] }>();
    for (const edge of edges) {
      for (const here of edge.from === edge.to ? [edge.from] : [edge.from, edge.to]) {
        const paths = frontier.get(here);
        if (!paths) continue;
        const other = here === edge.from ? edge.to : edge.from;
        // No entity is entered twice (a seed may still raise another seed).
        if (visited.has(other) && other.startsWith(ENTITY_KEY_PREFIX)) continue;
        const leavesEntity = here.startsWith(ENTITY_KEY_PREFIX);
        // Leaving an entity: as much as the entity bridges (its degree, read with this step).
        const factor =
          (TYPE_WEIGHTS[edge.type] ?? CUSTOM_WEIGHT) *
          edge.weight *
          (leavesEntity ? bridgeWeight(degree.get(here) ?? 1, documents) : 1);
        const target = next.get(other) ?? new Map<string, Path>();
        for (const [origin, path] of paths) {
          if (origin === other) continue;
          const through = leavesEntity ? here : path.through;
          const known = target.get(origin);
          const score = path.score * factor;
          if (!known || known.score < score)
            target.set(origin, {
              score,
              type: path.type ?? edge.type,
              ...(through === undefined ? {} : { through }),
            });
        }
        if (target.size > 0) next.set(other, target);
      }
    }
    const total = (paths: Map<string, Path>) =>
      [...paths.values()].reduce((sum, path) => sum + path.score, 0);
    // The beam: the strongest nodes of this step, within what is left of MAX_NODES.
    const kept = [...next.entries()]
      .map(([key, paths]) => ({ key, paths, score: total(paths) }))
      .filter((node) => node.score > 0)
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
      .slice(0, depth === 1 ? FIRST_STEP_NODES : MAX_NODES - nodes);
    nodes += kept.length;
    frontier = new Map(
      kept.filter((node) => !visited.has(node.key)).map((node) => [node.key, node.paths]),
    );
    for (const node of kept) {
      visited.add(node.key);
      if (node.key.startsWith(ENTITY_KEY_PREFIX)) continue;
      const known = reached.get(node.key) ?? { score: 0, via: [] };
      known.score += node.score;
      const strongest = [...node.paths.entries()].sort((a, b) => b[1].score - a[1].score);
      for (const [origin, path] of strongest) {
        if (known.via.length >= 3) break;
        known.via.push({
          from: origin,
          type: path.type ?? MENTIONS,
          ...(path.through === undefined ? {} : { through: path.through }),
        });
      }
      reached.set(node.key, known);
    }
  }
  if (reached.size === 0) return 0;
  const byKey = new Map(list.map((candidate) => [candidate.entry.key, candidate]));
  const missing = [...reached.keys()].filter((key) => !byKey.has(key));
  if (missing.length > 0) {
    const entries = await graph.read(namespace, missing);
    const found: Candidate[] = [];
    for (const entry of entries) {
      if (!entry || entry.category === ENTITY_CATEGORY || !entryMatchesFilter(entry, filter))
        continue;
      const candidate: Candidate = {
        entry,
        terms: indexedTerms(entry.key, entry.content),
        relevance: 0,
      };
      found.push(candidate);
      byKey.set(entry.key, candidate);
    }
    if (found.length > 0) {
      await measure(found);
      list.push(...found);
    }
  }
  let raised = 0;
  for (const [key, reach] of reached) {
    const candidate = byKey.get(key);
    if (!candidate) continue;
    const lift = GRAPH_WEIGHT * Math.min(1, reach.score);
    candidate.graph = { lift, via: reach.via };
    candidate.relevance = Math.min(1, candidate.relevance + lift);
    raised++;
  }
  return raised;
}
