import type { DriverRelations, MemoryDriver } from "@memory/api";
import {
  DEFAULT_RELATION_WEIGHT,
  InvalidInputError,
  NotFoundError,
  nowIso,
  type RelateOptions,
  type Relation,
  type RelationsOptions,
  type RelationType,
  selfRelationError,
  type UnrelateOptions,
  UnsupportedOperationError,
  validateKey,
  validateNamespace,
  validateRelationDirection,
  validateRelationMetadata,
  validateRelationsLimit,
  validateRelationType,
  validateRelationTypes,
  validateRelationWeight,
} from "@memory/api";
import type { FacadeContext } from "../facade-context.js";

/** The driver's edge storage, or UNSUPPORTED saying which backends have it. */
export function relationsOf(driver: MemoryDriver, operation: string): DriverRelations {
  if (!driver.capabilities.relations || !driver.relations) {
    throw new UnsupportedOperationError(
      `${operation}: the ${driver.name} backend does not store relations (capabilities.relations is false); use the sqlite, postgres, markdown or memory backend.`,
    );
  }
  return driver.relations;
}

function missing(key: string, namespace: string, role: string): NotFoundError {
  return new NotFoundError(
    `no entry "${key}" in namespace "${namespace}" to relate ${role}; store it first (memory store / Memory.store), then relate it.`,
  );
}

/** `relate`: validates, checks both entries exist, writes the edge in one batch. */
export async function relateEntries(
  context: FacadeContext,
  from: string,
  to: string,
  type: RelationType,
  options: RelateOptions,
): Promise<Relation> {
  const { driver } = context;
  relationsOf(driver, "relate");
  const namespace = validateNamespace(options.namespace);
  if (options.toNamespace !== undefined && validateNamespace(options.toNamespace) !== namespace) {
    throw new InvalidInputError(
      `cannot relate "${from}" in namespace "${namespace}" to an entry of namespace "${options.toNamespace}": relations join entries of one namespace (store a copy of the entry in "${namespace}" and relate that).`,
    );
  }
  const source = validateKey(from, "from");
  const target = validateKey(to, "to");
  if (source === target) throw selfRelationError(source);
  const relationType = validateRelationType(type);
  const weight =
    options.weight === undefined ? DEFAULT_RELATION_WEIGHT : validateRelationWeight(options.weight);
  const metadata =
    options.metadata === undefined ? undefined : validateRelationMetadata(options.metadata);
  const [fromEntry, toEntry] = await driver.read([
    { namespace, key: source },
    { namespace, key: target },
  ]);
  if (!fromEntry) throw missing(source, namespace, "from");
  if (!toEntry) throw missing(target, namespace, "to");
  const now = nowIso();
  const relation: Relation = {
    namespace,
    from: source,
    to: target,
    type: relationType,
    weight,
    createdAt: now,
    updatedAt: now,
  };
  if (metadata !== undefined) relation.metadata = metadata;
  context.assertOpen();
  const result = await driver.write({
    upserts: [],
    supersessions: [],
    deletes: [],
    relations: [{ relation }],
  });
  context.written(namespace);
  const stored = result.related?.[0];
  // Read above, gone now: another writer forgot one of the two meanwhile.
  if (!stored) throw missing(`${source}" or "${target}`, namespace, "(forgotten meanwhile)");
  return stored;
}

/** `unrelate`: removes the edges from `from` to `to` (one type, or all); returns how many. */
export async function unrelateEntries(
  context: FacadeContext,
  from: string,
  to: string,
  type: RelationType | undefined,
  options: UnrelateOptions,
): Promise<number> {
  const { driver } = context;
  relationsOf(driver, "unrelate");
  const namespace = validateNamespace(options.namespace);
  const removal = {
    namespace,
    from: validateKey(from, "from"),
    to: validateKey(to, "to"),
    ...(type === undefined ? {} : { type: validateRelationType(type) }),
  };
  context.assertOpen();
  const result = await driver.write({
    upserts: [],
    supersessions: [],
    deletes: [],
    unrelations: [removal],
  });
  context.written(namespace);
  return result.unrelated?.[0] ?? 0;
}

/** `relations`: the edges of one existing entry. */
export async function entryRelations(
  context: FacadeContext,
  key: string,
  options: RelationsOptions,
): Promise<Relation[]> {
  const store = relationsOf(context.driver, "relations");
  const namespace = validateNamespace(options.namespace);
  const validKey = validateKey(key);
  const direction = validateRelationDirection(options.direction);
  const types = validateRelationTypes(options.types);
  const limit = validateRelationsLimit(options.limit);
  const [entry] = await context.driver.read([{ namespace, key: validKey }]);
  if (!entry) {
    throw new NotFoundError(
      `no entry "${validKey}" in namespace "${namespace}"; store it first, or check the key and namespace (memory list).`,
    );
  }
  if (limit === 0) return [];
  return store.find({
    namespace,
    keys: [validKey],
    direction,
    ...(types === undefined ? {} : { types }),
    limit,
  });
}
