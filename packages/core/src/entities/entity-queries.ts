import {
  InvalidInputError,
  type Memory,
  type MemoryEntry,
  NotFoundError,
  validateNamespace,
} from "@memory/api";
import { ENTITY_CATEGORY, ENTITY_KEY_PREFIX, entityKey, MENTIONS } from "./entity-keys.js";
import { entityId } from "./entity-name.js";

/** Most mentions read per entity (the relations limit): a count at this value means "at least". */
export const ENTITY_MENTIONS_MAX = 1000;
/** Most entities `listEntities` reads from a namespace. */
export const ENTITIES_READ_MAX = 100_000;

/** One entity with how many entries name it. */
export interface EntitySummary {
  /** The entity id (`entityId`): lower-case, folded. */
  id: string;
  /** The key of its entry (`entity:<id>`). */
  key: string;
  /** The name as first written. */
  name: string;
  /** Entries that mention it (`mentions` relations to it), at most ENTITY_MENTIONS_MAX. */
  mentions: number;
}

/** What the memory says about one entity: the entries that name it, newest first. */
export interface EntityReport extends EntitySummary {
  namespace: string;
  entries: MemoryEntry[];
}

export interface ListEntitiesOptions {
  namespace?: string;
  /** The N most mentioned (default 20, at most 1,000). */
  top?: number;
}

export interface EntityOptions {
  namespace?: string;
  /** At most this many entries (default 20, at most 1,000). */
  limit?: number;
  /** Superseded entries that name it too (default false). */
  includeSuperseded?: boolean;
}

function bounded(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 1000)
    throw new InvalidInputError(
      `${name} must be a whole number from 1 to 1000, got ${JSON.stringify(value)}.`,
    );
  return value;
}

async function mentionCount(memory: Memory, namespace: string, key: string): Promise<number> {
  const edges = await memory.relations(key, {
    namespace,
    direction: "in",
    types: [MENTIONS],
    limit: ENTITY_MENTIONS_MAX,
  });
  return edges.length;
}

/**
 * The namespace's entities, most mentioned first (then by name), through the public `Memory`
 * (any backend with relations). An entity that no entry names any more is left out. Costs one
 * `list` and one `relations` call per entity.
 */
export async function listEntities(
  memory: Memory,
  options: ListEntitiesOptions = {},
): Promise<EntitySummary[]> {
  const namespace = validateNamespace(options.namespace);
  const top = bounded("top", options.top, 20);
  const entries = await memory.list({
    namespace,
    categories: [ENTITY_CATEGORY],
    limit: ENTITIES_READ_MAX,
  });
  const summaries = await Promise.all(
    entries
      .filter((entry) => entry.key.startsWith(ENTITY_KEY_PREFIX))
      .map(async (entry) => ({
        id: entry.key.slice(ENTITY_KEY_PREFIX.length),
        key: entry.key,
        name: entry.content,
        mentions: await mentionCount(memory, namespace, entry.key),
      })),
  );
  return summaries
    .filter((summary) => summary.mentions > 0)
    .sort((a, b) => b.mentions - a.mentions || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, top);
}

/**
 * What the memory says about `name` ("Melanie", "melanie's" and "MELANIE" are one entity): the
 * entries that mention it, newest first. NOT_FOUND when no entry names it.
 */
export async function entityReport(
  memory: Memory,
  name: string,
  options: EntityOptions = {},
): Promise<EntityReport> {
  const namespace = validateNamespace(options.namespace);
  const limit = bounded("limit", options.limit, 20);
  if (typeof name !== "string") throw new InvalidInputError("name must be a string.");
  const id = entityId(name);
  if (id === undefined)
    throw new InvalidInputError(
      `${JSON.stringify(name)} is not a name (no letters, or longer than 80 characters); give a person's, place's or product's name.`,
    );
  const key = entityKey(id);
  const entity = await memory.get(key, { namespace });
  const missing = () =>
    new NotFoundError(
      `no entry in namespace "${namespace}" names "${name}"; \`memory entities\` lists the names it knows (entity_reading must be on when entries are stored).`,
    );
  if (!entity) throw missing();
  const edges = await memory.relations(key, {
    namespace,
    direction: "in",
    types: [MENTIONS],
    limit: ENTITY_MENTIONS_MAX,
  });
  if (edges.length === 0) throw missing();
  const found = await Promise.all(edges.map((edge) => memory.get(edge.from, { namespace })));
  const entries = found
    .filter((entry): entry is MemoryEntry => entry !== null)
    .filter((entry) => options.includeSuperseded === true || entry.supersededBy === undefined)
    .sort((a, b) =>
      a.updatedAt !== b.updatedAt ? (a.updatedAt < b.updatedAt ? 1 : -1) : a.key < b.key ? -1 : 1,
    )
    .slice(0, limit);
  return { id, key, name: entity.content, namespace, mentions: edges.length, entries };
}
