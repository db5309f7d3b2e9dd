import type {
  EntryKey,
  EntryRecord,
  EntryUpsert,
  RelationRemoval,
  RelationUpsert,
} from "@memory/api";
import type { FacadeContext } from "../facade-context.js";
import { ENTITY_CATEGORY, entityKey, MENTIONS } from "./entity-keys.js";
import { readEntities } from "./read-entities.js";

/** What a write batch adds for the entities its entries name. */
export interface MentionPlan {
  /** Entity entries that do not exist yet. */
  upserts: EntryUpsert[];
  /** One `mentions` edge from each entry to each entity it names. */
  relations: RelationUpsert[];
  /** `mentions` edges of a restored key whose new content no longer names their entity. */
  unrelations: RelationRemoval[];
}

const EMPTY: MentionPlan = { upserts: [], relations: [], unrelations: [] };

/** Whether stores read entities: `entity_reading` on and a backend that stores relations. */
export function readsEntities(context: FacadeContext): boolean {
  const { driver } = context;
  return (
    context.options.settings.entityReading === true &&
    driver.capabilities.relations === true &&
    driver.relations !== undefined
  );
}

/**
 * The entities that `records` name, planned for the same write batch as the records (store and
 * import): an entity entry for each name not stored yet (its content the name as first written)
 * and a `mentions` edge to it. `replace` (store): the key's earlier `mentions` edges that its new
 * content no longer backs are removed; an import leaves earlier edges alone (one read less per
 * batch). `batchKeys`: entries the batch writes anyway (an imported entity entry is not planned
 * again). Costs one read of the entity keys and, with `replace`, one read of the key's edges.
 */
export async function planMentions(
  context: FacadeContext,
  records: readonly EntryRecord[],
  options: { replace: boolean; batchKeys?: ReadonlySet<string> },
): Promise<MentionPlan> {
  if (!readsEntities(context)) return EMPTY;
  const relations: RelationUpsert[] = [];
  const wanted = new Map<string, { entry: EntryKey; name: string; at: string }>();
  const named = new Map<string, Set<string>>();
  for (const record of records) {
    if (record.category === ENTITY_CATEGORY) continue;
    const targets = new Set<string>();
    for (const mention of readEntities(record.content)) {
      const key = entityKey(mention.id);
      if (key === record.key) continue;
      targets.add(key);
      const id = `${record.namespace}\u0000${key}`;
      if (!wanted.has(id))
        wanted.set(id, {
          entry: { namespace: record.namespace, key },
          name: mention.name,
          at: record.updatedAt,
        });
      relations.push({
        relation: {
          namespace: record.namespace,
          from: record.key,
          to: key,
          type: MENTIONS,
          weight: 1,
          createdAt: record.updatedAt,
          updatedAt: record.updatedAt,
        },
      });
    }
    named.set(`${record.namespace}\u0000${record.key}`, targets);
  }
  const candidates = [...wanted.entries()].filter(([id]) => !options.batchKeys?.has(id));
  const stored = await context.driver.read(candidates.map(([, item]) => item.entry));
  const upserts: EntryUpsert[] = [];
  candidates.forEach(([, item], index) => {
    if (stored[index]) return;
    upserts.push({
      entry: {
        id: crypto.randomUUID(),
        key: item.entry.key,
        content: item.name,
        category: ENTITY_CATEGORY,
        namespace: item.entry.namespace,
        createdAt: item.at,
        updatedAt: item.at,
      },
    });
  });
  const unrelations = options.replace ? await staleMentions(context, records, named) : [];
  return { upserts, relations, unrelations };
}

/** The stored `mentions` edges of `records` that their new content no longer backs. */
async function staleMentions(
  context: FacadeContext,
  records: readonly EntryRecord[],
  named: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<RelationRemoval[]> {
  const removals: RelationRemoval[] = [];
  for (const record of records) {
    const targets = named.get(`${record.namespace}\u0000${record.key}`);
    if (!targets) continue;
    const edges = await context.driver.relations!.find({
      namespace: record.namespace,
      keys: [record.key],
      direction: "out",
      types: [MENTIONS],
    });
    for (const edge of edges)
      if (!targets.has(edge.to))
        removals.push({ namespace: edge.namespace, from: edge.from, to: edge.to, type: MENTIONS });
  }
  return removals;
}
