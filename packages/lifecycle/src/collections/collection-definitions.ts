import { realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import {
  ConfigError,
  ConflictError,
  DEFAULT_NAMESPACE,
  InvalidInputError,
  type Memory,
  type MemoryConfig,
  NotFoundError,
  validateCollectionName,
  validateNamespace,
} from "@memory/api";
import {
  type CollectionDefinition,
  readStoredCollections,
  writeStoredCollections,
} from "@memory/core";
import { compileCollectionPattern, DEFAULT_COLLECTION_PATTERN } from "./collection-glob.js";

/** A collection as a caller or memory.toml gives it (`[collections.<name>]`). */
export interface CollectionInput {
  name: string;
  /** The folder; `~/` is the home folder; relative to `baseDir` (memory.toml's folder) or the working folder. */
  path: string;
  pattern?: string;
  namespace?: string;
  /** A description of the whole collection, or one per path prefix (`{ "decisions/": "ADRs" }`). */
  context?: string | Record<string, string>;
}

function expandHome(folder: string): string {
  return folder === "~" || folder.startsWith("~/") ? path.join(homedir(), folder.slice(1)) : folder;
}

function checkContext(name: string, context: unknown): Record<string, string> | undefined {
  if (context === undefined) return undefined;
  if (typeof context === "string") return { "": context };
  if (
    typeof context === "object" &&
    context !== null &&
    !Array.isArray(context) &&
    Object.values(context).every((value) => typeof value === "string")
  )
    return { ...(context as Record<string, string>) };
  throw new InvalidInputError(
    `context of collection "${name}" must be a text, or a table of texts by path prefix ({ "decisions/" = "Architecture decisions" }).`,
  );
}

/**
 * Checks a collection and resolves its folder: it must exist and be a folder; symlinks in the
 * path itself are resolved here, once (the walk then never follows one).
 */
export async function resolveCollection(
  input: CollectionInput,
  options: {
    baseDir?: string;
    origin?: CollectionDefinition["origin"];
    /** false: a missing folder is kept as given (listing a configured collection). */
    requireFolder?: boolean;
  } = {},
): Promise<CollectionDefinition> {
  const name = validateCollectionName(input.name);
  if (typeof input.path !== "string" || input.path.trim() === "")
    throw new InvalidInputError(`collection "${name}" needs a path: the folder of its notes.`);
  const pattern = input.pattern ?? DEFAULT_COLLECTION_PATTERN;
  compileCollectionPattern(pattern);
  const namespace = validateNamespace(input.namespace ?? DEFAULT_NAMESPACE);
  const context = checkContext(name, input.context);
  const given = path.resolve(options.baseDir ?? process.cwd(), expandHome(input.path));
  let folder: string;
  try {
    folder = await realpath(given);
    if (!(await stat(folder)).isDirectory()) throw new Error("not a folder");
  } catch (error) {
    if (options.requireFolder === false) folder = given;
    else
      throw new InvalidInputError(
        `collection "${name}": ${given} is not a readable folder (${(error as Error).message}); give the folder that holds the notes.`,
        { cause: error, details: { collection: name, path: given } },
      );
  }
  return {
    name,
    path: folder,
    pattern,
    namespace,
    ...(context ? { context } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
  };
}

/**
 * The `[collections.<name>]` tables of a configuration, checked (not resolved: a folder is
 * looked at when the collection is synced). A bad table is a ConfigError naming it.
 */
export function collectionsFromConfig(config: MemoryConfig): CollectionInput[] {
  const table = config.collections;
  if (table === undefined) return [];
  if (typeof table !== "object" || table === null || Array.isArray(table))
    throw new ConfigError(
      '[collections] must hold one table per collection: [collections.notes] with path = "~/notes".',
    );
  return Object.entries(table as Record<string, unknown>).map(([name, value]) => {
    const fields = value as Record<string, unknown>;
    const known = new Set(["path", "pattern", "namespace", "context"]);
    const unknown =
      typeof value === "object" && value !== null
        ? Object.keys(fields).filter((key) => !known.has(key))
        : [];
    if (typeof value !== "object" || value === null || typeof fields.path !== "string")
      throw new ConfigError(
        `[collections.${name}] needs path = "<folder of notes>" (and optionally pattern, namespace, context).`,
      );
    if (unknown.length > 0)
      throw new ConfigError(
        `[collections.${name}] has unknown key(s) ${unknown.join(", ")}: use path, pattern, namespace, context.`,
      );
    for (const key of ["pattern", "namespace"] as const)
      if (fields[key] !== undefined && typeof fields[key] !== "string")
        throw new ConfigError(`[collections.${name}] ${key} must be a text.`);
    return { name, ...(fields as Omit<CollectionInput, "name">) };
  });
}

/**
 * Every collection of the store: the ones added with `addCollection` (kept in the store's job
 * state, seen by every process) and the configured ones, which win on a name they share.
 */
export async function listCollections(
  memory: Memory,
  configured: readonly CollectionInput[] = [],
  options: { baseDir?: string } = {},
): Promise<CollectionDefinition[]> {
  const stored = await readStoredCollections(memory);
  // A configured folder that is missing now is still listed (its sync says why).
  for (const input of configured)
    stored[input.name] = await resolveCollection(input, {
      ...options,
      origin: "config",
      requireFolder: false,
    });
  return Object.values(stored).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Adds a collection to the store's definitions (not indexed yet: `syncCollection` does that).
 * Adding the same definition again changes nothing; another definition under a used name is a
 * CONFLICT, and so is a name already used as a category by memories of its namespace.
 */
export async function addCollection(
  memory: Memory,
  input: CollectionInput,
): Promise<CollectionDefinition> {
  const definition = await resolveCollection(input, { origin: "added" });
  const stored = await readStoredCollections(memory);
  const known = stored[definition.name];
  if (known) {
    const same =
      known.path === definition.path &&
      known.pattern === definition.pattern &&
      known.namespace === definition.namespace &&
      JSON.stringify(known.context ?? {}) === JSON.stringify(definition.context ?? {});
    if (same) return known;
    throw new ConflictError(
      `collection "${definition.name}" already exists (${known.path}, ${known.pattern}, namespace ${known.namespace}): remove it first (memory collection remove ${definition.name}) or choose another name.`,
    );
  }
  const used = await memory.count({
    namespace: definition.namespace,
    categories: [definition.name],
  });
  if (used > 0)
    throw new ConflictError(
      `the name "${definition.name}" is already the category of ${used} memories in namespace ${definition.namespace}; a collection's name is its entries' category, so choose another name.`,
    );
  stored[definition.name] = definition;
  await writeStoredCollections(memory, stored);
  return definition;
}

/** The stored definition of `name`; NOT_FOUND with the known names otherwise. */
export async function storedCollection(
  memory: Memory,
  name: string,
): Promise<CollectionDefinition> {
  const stored = await readStoredCollections(memory);
  const found = stored[validateCollectionName(name)];
  if (!found)
    throw new NotFoundError(
      `no collection "${name}"${Object.keys(stored).length ? ` (known: ${Object.keys(stored).join(", ")})` : ""}: add it with \`memory collection add ${name} <folder>\`.`,
    );
  return found;
}

/** Removes a definition from the store (the index itself goes with `removeCollection`). */
export async function forgetCollectionDefinition(memory: Memory, name: string): Promise<void> {
  const stored = await readStoredCollections(memory);
  delete stored[name];
  await writeStoredCollections(memory, stored);
}
