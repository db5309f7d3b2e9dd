/**
 * Relations: typed, weighted, directed edges between two entries of ONE namespace (DESIGN.md
 * section 14, docs/relations.md). Identity is `(namespace, from, to, type)`: relating the same
 * pair with the same type again updates the edge and keeps the stronger weight.
 */

/** The relation types every backend knows; any other name of the category form is custom. */
export const BUILT_IN_RELATION_TYPES = [
  "semantic",
  "supports",
  "contradicts",
  "causes",
  "follows",
  "mentions",
  "derived_from",
] as const;

export type BuiltInRelationType = (typeof BUILT_IN_RELATION_TYPES)[number];

/** A built-in type or a custom one (letters, digits, `-`, `_`; at most 64 characters). */
// `string & {}` keeps editor completion for the built-in names while accepting custom ones.
export type RelationType = BuiltInRelationType | (string & {});

/** One stored edge. */
export interface Relation {
  namespace: string;
  /** Key of the source entry. */
  from: string;
  /** Key of the target entry (same namespace). */
  to: string;
  type: RelationType;
  /** How strong the relation is, in [0, 1]; a repeated `relate` keeps the stronger weight. */
  weight: number;
  /** A JSON object (at most 16 KiB as JSON), kept as given. */
  metadata?: Record<string, unknown>;
  /** UTC ISO-8601: when the edge was first written (kept by later writes). */
  createdAt: string;
  /** UTC ISO-8601: when the edge was last written. */
  updatedAt: string;
}

/** An outgoing edge as an exported entry carries it (`MemoryEntry.relations`), and an import takes it. */
export interface EntryRelation {
  to: string;
  type: RelationType;
  weight: number;
  metadata?: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
}

/** An outgoing relation an import takes: as exported, with the weight optional (default 1). */
export type ImportRelation = Omit<EntryRelation, "weight"> & { weight?: number };

/** Options of `Memory.relate`. */
export interface RelateOptions {
  /** Namespace of both entries; defaults to `"default"`. */
  namespace?: string;
  /**
   * The target's namespace, when the caller names one: it must equal `namespace` (relations
   * never cross namespaces; the check makes that explicit instead of silently relating another entry).
   */
  toNamespace?: string;
  /** In [0, 1]; default 1. */
  weight?: number;
  metadata?: Record<string, unknown>;
}

/** Options of `Memory.unrelate`. */
export interface UnrelateOptions {
  /** Defaults to `"default"`. */
  namespace?: string;
}

/** Which edges of an entry `relations` returns. */
export type RelationDirection = "out" | "in" | "both";

/** Options of `Memory.relations`. */
export interface RelationsOptions {
  /** Defaults to `"default"`. */
  namespace?: string;
  /** `out` (edges from the key), `in` (edges to it) or `both` (default). */
  direction?: RelationDirection;
  /** Only these types (default every type). */
  types?: RelationType[];
  /** At most this many edges (default 100, at most 1,000), strongest first. */
  limit?: number;
}
