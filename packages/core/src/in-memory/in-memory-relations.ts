import type { Relation, RelationQuery, RelationRemoval, RelationUpsert } from "@memory/api";
import { InMemoryStore } from "./in-memory-store.js";

/** The reference edge storage of the in-memory driver: a Map keyed by the edge's identity. */
export class InMemoryRelations {
  readonly #store: InMemoryStore;

  constructor(store: InMemoryStore) {
    this.#store = store;
  }

  static id(relation: { namespace: string; from: string; to: string; type: string }): string {
    return [relation.namespace, relation.from, relation.to, relation.type].join("\u0000");
  }

  /** One upsert: the stronger weight stays, given metadata replaces, createdAt stays. */
  upsert({ relation, replaceCreatedAt }: RelationUpsert): Relation | undefined {
    const { rows, relations } = this.#store;
    if (
      !rows.has(InMemoryStore.id(relation.namespace, relation.from)) ||
      !rows.has(InMemoryStore.id(relation.namespace, relation.to))
    )
      return undefined;
    const id = InMemoryRelations.id(relation);
    const existing = relations.get(id);
    const stored: Relation = existing
      ? {
          ...existing,
          weight: Math.max(existing.weight, relation.weight),
          createdAt: replaceCreatedAt ? relation.createdAt : existing.createdAt,
          updatedAt: relation.updatedAt,
        }
      : { ...relation };
    if (relation.metadata !== undefined) stored.metadata = structuredClone(relation.metadata);
    relations.set(id, stored);
    return copyRelation(stored);
  }

  remove(removal: RelationRemoval): number {
    let removed = 0;
    for (const [id, relation] of this.#store.relations) {
      if (
        relation.namespace === removal.namespace &&
        relation.from === removal.from &&
        relation.to === removal.to &&
        (removal.type === undefined || relation.type === removal.type)
      ) {
        this.#store.relations.delete(id);
        removed++;
      }
    }
    return removed;
  }

  /** Every edge from or to a deleted entry goes with it. */
  cascade(namespace: string, key: string): void {
    for (const [id, relation] of this.#store.relations) {
      if (relation.namespace === namespace && (relation.from === key || relation.to === key))
        this.#store.relations.delete(id);
    }
  }

  find(query: RelationQuery): Relation[] {
    const keys = new Set(query.keys);
    const types = query.types ? new Set(query.types) : undefined;
    const found = [...this.#store.relations.values()].filter(
      (relation) =>
        relation.namespace === query.namespace &&
        (types === undefined || types.has(relation.type)) &&
        ((query.direction !== "in" && keys.has(relation.from)) ||
          (query.direction !== "out" && keys.has(relation.to))),
    );
    found.sort(compareRelations);
    return (query.limit === undefined ? found : found.slice(0, query.limit)).map(copyRelation);
  }
}

function copyRelation(relation: Relation): Relation {
  const copy = { ...relation };
  if (relation.metadata !== undefined) copy.metadata = structuredClone(relation.metadata);
  return copy;
}

/** Weight descending, then updatedAt descending, then from, to, type (the contract's order). */
export function compareRelations(a: Relation, b: Relation): number {
  return (
    b.weight - a.weight ||
    (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0) ||
    (a.from < b.from ? -1 : a.from > b.from ? 1 : 0) ||
    (a.to < b.to ? -1 : a.to > b.to ? 1 : 0) ||
    (a.type < b.type ? -1 : a.type > b.type ? 1 : 0)
  );
}
