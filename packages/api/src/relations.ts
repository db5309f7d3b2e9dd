import { InvalidInputError } from "./errors.js";
import { describe, nullField, optional } from "./field-checks.js";
import { normalizeTimestamp } from "./timestamps.js";
import {
  BUILT_IN_RELATION_TYPES,
  type EntryRelation,
  type RelationDirection,
  type RelationType,
} from "./types/relation.js";
import { CUSTOM_CATEGORY_PATTERN, validateKey, validateLimit } from "./validation.js";

/** The largest relation metadata (UTF-16 code units of its JSON), like a decision record. */
export const RELATION_METADATA_MAX_CHARS = 16_384;
/** The weight of a relation that does not give one: the caller asserted it. */
export const DEFAULT_RELATION_WEIGHT = 1;
/** `relations` returns this many edges unless told otherwise. */
export const RELATIONS_LIMIT_DEFAULT = 100;
/** And never more than this many per call. */
export const RELATIONS_LIMIT_MAX = 1000;
/** The outgoing edges one imported entry may carry. */
export const ENTRY_RELATIONS_MAX = 1000;

/** Whether `type` is one of {@link BUILT_IN_RELATION_TYPES}. */
export function isBuiltInRelationType(type: string): boolean {
  return (BUILT_IN_RELATION_TYPES as readonly string[]).includes(type);
}

/** A built-in relation type, or a custom one validated like a custom category name. */
export function validateRelationType(type: unknown): RelationType {
  if (type === null) throw nullField("type");
  if (typeof type !== "string" || !CUSTOM_CATEGORY_PATTERN.test(type)) {
    throw new InvalidInputError(
      `relation type must be one of ${BUILT_IN_RELATION_TYPES.join(", ")} or a custom name of 1-64 letters, digits, "-" or "_", got ${describe(type)}.`,
    );
  }
  return type;
}

/** A finite number in [0, 1]. */
export function validateRelationWeight(weight: unknown): number {
  if (weight === null) throw nullField("weight");
  if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0 || weight > 1) {
    throw new InvalidInputError(
      `relation weight must be a number from 0 to 1 (how strong the relation is), got ${describe(weight)}.`,
    );
  }
  return weight;
}

/** A plain JSON object of at most {@link RELATION_METADATA_MAX_CHARS} characters as JSON; a copy. */
export function validateRelationMetadata(metadata: unknown): Record<string, unknown> {
  if (metadata === null) throw nullField("metadata");
  if (typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new InvalidInputError(
      `relation metadata must be a JSON object, got ${describe(metadata)}.`,
    );
  }
  let text: string;
  try {
    text = JSON.stringify(metadata);
  } catch (error) {
    throw new InvalidInputError(
      `relation metadata must be JSON (no cycles, no BigInt): ${(error as Error).message}.`,
      { cause: error },
    );
  }
  if (text.length > RELATION_METADATA_MAX_CHARS) {
    throw new InvalidInputError(
      `relation metadata is ${text.length} characters as JSON, more than ${RELATION_METADATA_MAX_CHARS}; keep the details in an entry and relate to it.`,
    );
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/** `out`, `in` or `both` (default). */
export function validateRelationDirection(direction: unknown): RelationDirection {
  if (direction === undefined) return "both";
  if (direction !== "out" && direction !== "in" && direction !== "both") {
    throw new InvalidInputError(
      `direction must be "out", "in" or "both", got ${describe(direction)}.`,
    );
  }
  return direction;
}

/** A list of relation types (undefined: every type). */
export function validateRelationTypes(types: unknown): RelationType[] | undefined {
  if (types === undefined) return undefined;
  if (!Array.isArray(types)) {
    throw new InvalidInputError(
      `types must be an array of relation types, got ${describe(types)}.`,
    );
  }
  return types.map(validateRelationType);
}

/** `relations`'s limit: an integer in [0, 1000], default 100. */
export function validateRelationsLimit(limit: unknown): number {
  return validateLimit(limit, RELATIONS_LIMIT_DEFAULT, RELATIONS_LIMIT_MAX);
}

/** The outgoing edges an import entry carries (`ImportEntry.relations`), validated. */
export function normalizeEntryRelations(value: unknown, from: string): EntryRelation[] {
  if (value === null) throw nullField("relations");
  if (!Array.isArray(value)) {
    throw new InvalidInputError(
      `relations must be an array of { to, type, weight } objects, got ${describe(value)}.`,
    );
  }
  if (value.length > ENTRY_RELATIONS_MAX) {
    throw new InvalidInputError(
      `an entry carries ${value.length} relations, more than ${ENTRY_RELATIONS_MAX}; split them over several imports.`,
    );
  }
  return value.map((raw: unknown) => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new InvalidInputError(
        `each relation must be an object { to, type, weight }, got ${describe(raw)}.`,
      );
    }
    const item = raw as Record<string, unknown>;
    const to = validateKey(item.to, "relations[].to");
    if (to === from) throw selfRelationError(from);
    const relation: EntryRelation = {
      to,
      type: validateRelationType(item.type),
      weight:
        item.weight === undefined ? DEFAULT_RELATION_WEIGHT : validateRelationWeight(item.weight),
    };
    const metadata = optional(item.metadata, validateRelationMetadata);
    if (metadata !== undefined) relation.metadata = metadata;
    const createdAt = optional(item.createdAt, (v) => normalizeTimestamp(v, "createdAt"));
    const updatedAt = optional(item.updatedAt, (v) => normalizeTimestamp(v, "updatedAt"));
    if (createdAt !== undefined) relation.createdAt = createdAt;
    if (updatedAt !== undefined) relation.updatedAt = updatedAt;
    return relation;
  });
}

/** An entry related to itself. */
export function selfRelationError(key: string): InvalidInputError {
  return new InvalidInputError(
    `cannot relate "${key}" to itself: a relation joins two different entries (give another key as the target).`,
  );
}
