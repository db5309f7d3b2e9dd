/** The reserved category of entity entries: hidden from recall unless `categories` names it. */
export const ENTITY_CATEGORY = "entity";

/** Entity entries are keyed `entity:<entity id>` (one per name and namespace). */
export const ENTITY_KEY_PREFIX = "entity:";

/** The relation type from an entry to each entity it names. */
export const MENTIONS = "mentions";

/** The key of an entity's entry. */
export function entityKey(id: string): string {
  return `${ENTITY_KEY_PREFIX}${id}`;
}
