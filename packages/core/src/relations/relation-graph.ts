import {
  InvalidInputError,
  type Memory,
  type Relation,
  type RelationType,
  validateNamespace,
} from "@memory/api";

/** `memory graph` walks at most this deep... */
export const GRAPH_DEPTH_MAX = 3;
/** ...and collects at most this many entries, so one call stays small whatever the store holds. */
export const GRAPH_NODES_MAX = 100;

export interface RelationGraphOptions {
  namespace?: string;
  /** How many edges away from the start (1 to 3, default 2). */
  depth?: number;
  /** At most this many entries, the start included (1 to 100, default 100). */
  maxNodes?: number;
  /** Follow only these types (default every type). */
  types?: RelationType[];
}

export interface RelationGraphNode {
  key: string;
  /** Edges from the start entry (0 for the start itself). */
  depth: number;
  /** The entry's content and category (absent if it was forgotten during the walk). */
  content?: string;
  category?: string;
}

/** What `relationGraph` found: nodes in breadth-first order, each edge once. */
export interface RelationGraph {
  namespace: string;
  root: string;
  depth: number;
  nodes: RelationGraphNode[];
  edges: Relation[];
  /** True when `maxNodes` stopped the walk before every reachable entry was visited. */
  truncated: boolean;
}

function bounded(name: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidInputError(
      `${name} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/**
 * Breadth-first over the relations of `key` (both directions), bounded in depth and size, through
 * the public `Memory` only (any backend with `capabilities.relations`). Throws NOT_FOUND when
 * `key` does not exist, UNSUPPORTED when the backend has no relations.
 */
export async function relationGraph(
  memory: Memory,
  key: string,
  options: RelationGraphOptions = {},
): Promise<RelationGraph> {
  const namespace = validateNamespace(options.namespace);
  const depth = bounded("depth", options.depth, 2, GRAPH_DEPTH_MAX);
  const maxNodes = bounded("maxNodes", options.maxNodes, GRAPH_NODES_MAX, GRAPH_NODES_MAX);
  const seen = new Map<string, RelationGraphNode>([[key, { key, depth: 0 }]]);
  const edges = new Map<string, Relation>();
  let truncated = false;
  let frontier = [key];
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const next: string[] = [];
    for (const node of frontier) {
      const found = await memory.relations(node, {
        namespace,
        direction: "both",
        ...(options.types ? { types: options.types } : {}),
        limit: 1000,
      });
      for (const relation of found) {
        const other = relation.from === node ? relation.to : relation.from;
        if (!seen.has(other)) {
          if (seen.size >= maxNodes) {
            truncated = true;
            continue;
          }
          seen.set(other, { key: other, depth: level });
          next.push(other);
        }
        edges.set(`${relation.from}\u0000${relation.to}\u0000${relation.type}`, relation);
      }
    }
    frontier = next;
  }
  const nodes = [...seen.values()];
  const entries = await Promise.all(nodes.map((node) => memory.get(node.key, { namespace })));
  nodes.forEach((node, index) => {
    const entry = entries[index];
    if (!entry) return;
    node.content = entry.content;
    node.category = entry.category;
  });
  return { namespace, root: key, depth, nodes, edges: [...edges.values()], truncated };
}
