import {
  DEFAULT_NAMESPACE,
  InvalidInputError,
  type Memory,
  normalizeTimestamp,
  validateNamespace,
} from "@memory/api";
import { entityId } from "@memory/core";
import { readTriples, type StoredTriple, validAt } from "./triple-record.js";

export interface KnowledgeGraphOptions {
  namespace?: string;
  /** The time the triples must hold at: RFC 3339 or `YYYY-MM-DD`; default now. */
  asOf?: string;
  /** The clock for the default `asOf`. */
  now?: () => Date;
}

/** What {@link knowledgeGraph} returns. */
export interface KnowledgeGraph {
  /** The entity id the name folds to (`entityId`; "I", "me" and "user" fold to `user`). */
  entity: string;
  namespace: string;
  asOf: string;
  /** The triples about the entity (as subject or object) that held at `asOf`, newest first. */
  triples: StoredTriple[];
}

/**
 * The knowledge-graph triples about an entity that held at a time (docs/knowledge-graph.md):
 * those with the entity as subject or object, `validFrom <= asOf < validTo`, newest `validFrom`
 * first. Throws INVALID_INPUT for an empty or nameless entity and for an `asOf` that is not a time.
 */
export async function knowledgeGraph(
  memory: Memory,
  entity: string,
  options: KnowledgeGraphOptions = {},
): Promise<KnowledgeGraph> {
  if (typeof entity !== "string" || entity.trim() === "") {
    throw new InvalidInputError(
      'entity must name a person, place or thing (e.g. "Melanie", or "user" for the user); got an empty name.',
    );
  }
  const folded = entity.trim().toLowerCase();
  const id = ["user", "i", "me", "the user"].includes(folded) ? "user" : entityId(entity);
  if (id === undefined) {
    throw new InvalidInputError(
      `entity ${JSON.stringify(entity)} is not a name (it needs a letter and at most 80 characters); give the name as it is written, e.g. "Melanie".`,
    );
  }
  const namespace = validateNamespace(options.namespace ?? DEFAULT_NAMESPACE);
  const asOf =
    options.asOf === undefined
      ? (options.now ?? (() => new Date()))().toISOString()
      : normalizeTimestamp(options.asOf, "asOf");
  const triples = (await readTriples(memory, namespace))
    .filter((triple) => (triple.subject === id || triple.object === id) && validAt(triple, asOf))
    .sort((a, b) =>
      a.validFrom === b.validFrom ? a.key.localeCompare(b.key) : a.validFrom < b.validFrom ? 1 : -1,
    );
  return { entity: id, namespace, asOf, triples };
}
