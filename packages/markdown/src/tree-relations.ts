import type {
  EntryRelation,
  MemoryEntry,
  Relation,
  RelationQuery,
  RelationRemoval,
  RelationUpsert,
} from "@memory/api";
import { compareRelations } from "@memory/core";
import type { MarkdownTree } from "./markdown-tree.js";

/**
 * Relations on the Markdown backend live in the files: each entry line's metadata comment keeps
 * the entry's OUTGOING edges (`"relations": [{ "to", "type", "weight", ... }]`), so the files stay
 * the whole truth. Incoming edges are found by reading the namespace's entries (this backend is
 * for stores a person can read, not for millions of entries). An edge whose target line was
 * removed by hand is not returned while that key is missing (it comes back if the key is stored
 * again); `forget` and the other deletions also rewrite the lines that point at what they delete.
 */

/** The entry as the facade sees it: its edges are read through `relations`, never on the entry. */
export function publicEntry(entry: MemoryEntry): MemoryEntry {
  if (entry.relations === undefined) return entry;
  const { relations: _edges, ...rest } = entry;
  return rest;
}

function asRelation(namespace: string, from: string, edge: EntryRelation): Relation {
  const relation: Relation = {
    namespace,
    from,
    to: edge.to,
    type: edge.type,
    weight: edge.weight,
    createdAt: edge.createdAt ?? edge.updatedAt ?? "",
    updatedAt: edge.updatedAt ?? edge.createdAt ?? "",
  };
  if (edge.metadata !== undefined) relation.metadata = structuredClone(edge.metadata);
  return relation;
}

/** The edges matching `query`, in the contract's order. */
export function findTreeRelations(tree: MarkdownTree, query: RelationQuery): Relation[] {
  const entries = tree.entries(query.namespace);
  const keys = new Set(query.keys);
  const types = query.types ? new Set(query.types) : undefined;
  const found: Relation[] = [];
  const sources =
    query.direction === "out"
      ? query.keys.flatMap((key) => entries.get(key) ?? [])
      : [...entries.values()];
  for (const row of sources) {
    for (const edge of row.entry.relations ?? []) {
      if (types !== undefined && !types.has(edge.type)) continue;
      if (!entries.has(edge.to)) continue; // its target line is gone
      const outgoing = query.direction !== "in" && keys.has(row.entry.key);
      const incoming = query.direction !== "out" && keys.has(edge.to);
      if (outgoing || incoming) found.push(asRelation(query.namespace, row.entry.key, edge));
    }
  }
  found.sort(compareRelations);
  return query.limit === undefined ? found : found.slice(0, query.limit);
}

/** The source entry with the edge upserted (stronger weight kept), and the stored edge. */
export function withRelation(
  source: MemoryEntry,
  { relation, replaceCreatedAt }: RelationUpsert,
): { entry: MemoryEntry; stored: Relation } {
  const edges = [...(source.relations ?? [])];
  const at = edges.findIndex((edge) => edge.to === relation.to && edge.type === relation.type);
  const existing = at >= 0 ? edges[at] : undefined;
  const edge: EntryRelation = {
    to: relation.to,
    type: relation.type,
    weight: existing ? Math.max(existing.weight, relation.weight) : relation.weight,
    createdAt:
      existing?.createdAt !== undefined && !replaceCreatedAt
        ? existing.createdAt
        : relation.createdAt,
    updatedAt: relation.updatedAt,
  };
  const metadata = relation.metadata ?? existing?.metadata;
  if (metadata !== undefined) edge.metadata = structuredClone(metadata);
  if (at >= 0) edges[at] = edge;
  else edges.push(edge);
  return {
    entry: { ...source, relations: edges },
    stored: asRelation(relation.namespace, source.key, edge),
  };
}

/** The source entry without the edges `removal` names, and how many went. */
export function withoutRelations(
  source: MemoryEntry,
  removal: RelationRemoval,
): { entry: MemoryEntry; removed: number } {
  const edges = source.relations ?? [];
  const kept = edges.filter(
    (edge) => edge.to !== removal.to || (removal.type !== undefined && edge.type !== removal.type),
  );
  return { entry: withEdges(source, kept), removed: edges.length - kept.length };
}

/** The entry without its edges to any of `gone` (deleted keys); undefined when it had none. */
export function withoutEdgesTo(
  entry: MemoryEntry,
  gone: ReadonlySet<string>,
): MemoryEntry | undefined {
  const edges = entry.relations ?? [];
  const kept = edges.filter((edge) => !gone.has(edge.to));
  return kept.length === edges.length ? undefined : withEdges(entry, kept);
}

function withEdges(entry: MemoryEntry, edges: EntryRelation[]): MemoryEntry {
  const { relations: _old, ...rest } = entry;
  return edges.length === 0 ? rest : { ...rest, relations: edges };
}
