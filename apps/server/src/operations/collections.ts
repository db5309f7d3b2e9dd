import { realpath } from "node:fs/promises";
import path from "node:path";
import { NotFoundError } from "@memory/api";
import { type CollectionDefinition, readManifest } from "@memory/core";
import {
  addCollection,
  type CollectionInput,
  type CollectionSyncReport,
  listCollections,
  removeCollection,
  resolveCollection,
  syncCollection,
  syncCollections,
} from "@memory/lifecycle";
import { canUse, resolveNamespace } from "../access.js";
import { HttpError } from "../http-error.js";
import type { OperationScope } from "./operation-scope.js";

/** The server's collection settings: memory.toml's collections and the folders HTTP may add. */
export interface CollectionSettings {
  /** `[collections.<name>]` of memory.toml. */
  configured: readonly CollectionInput[];
  /** The folder relative configured paths start from. */
  baseDir?: string;
  /** `[server].collection_roots`: `POST /v1/collections` only adds folders inside one of these. */
  roots: readonly string[];
}

export type CollectionScope = OperationScope & { collections: CollectionSettings };

async function visibleCollections(scope: CollectionScope): Promise<CollectionDefinition[]> {
  const { configured, baseDir } = scope.collections;
  const all = await listCollections(scope.memory, configured, baseDir ? { baseDir } : {});
  return all.filter((definition) => canUse(scope.access, definition.namespace));
}

function forbidden(name: string): HttpError {
  return new HttpError(
    "FORBIDDEN",
    `This token may not use collection "${name}": its namespace is not one of the token's.`,
  );
}

/** The collections in the caller's namespaces, with how much of each is indexed. */
export async function listCollectionsFor(scope: CollectionScope) {
  const rows = [];
  for (const definition of await visibleCollections(scope)) {
    const notes = await readManifest(scope.memory, definition.name);
    let fragments = 0;
    for (const note of notes.values()) fragments += note.ranges.length;
    rows.push({ ...definition, notes: notes.size, fragments });
  }
  return rows;
}

/** True when `folder` (already real) is `root` or inside it, after resolving `root`'s links. */
async function inside(folder: string, root: string): Promise<boolean> {
  const real = await realpath(root).catch(() => undefined);
  if (!real) return false;
  const relative = path.relative(real, folder);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Adds (and by default indexes) a collection. The folder is resolved (symlinks included) BEFORE
 * it is checked against `[server].collection_roots`, so a link cannot reach outside them.
 */
export async function addCollectionFor(
  input: CollectionInput & { sync?: boolean | undefined },
  scope: CollectionScope,
): Promise<{ collection: CollectionDefinition; sync?: CollectionSyncReport }> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  const { roots } = scope.collections;
  if (roots.length === 0)
    throw new HttpError(
      "FORBIDDEN",
      'Adding collections over HTTP is off: set [server] collection_roots = ["/srv/notes"] (the folders it may index), or run `memory collection add` on the server.',
    );
  const { sync, ...fields } = input;
  const resolved = await resolveCollection({ ...fields, namespace });
  let allowed = false;
  for (const root of roots) allowed ||= await inside(resolved.path, root);
  if (!allowed)
    throw new HttpError(
      "FORBIDDEN",
      `${resolved.path} is outside [server].collection_roots; add a folder inside one of them.`,
    );
  const collection = await addCollection(scope.memory, {
    ...fields,
    path: resolved.path,
    namespace,
  });
  if (sync === false) return { collection };
  return { collection, sync: await syncCollection(scope.memory, collection) };
}

/**
 * The collection `name` if the caller may use it: FORBIDDEN when it belongs to another
 * namespace, NOT_FOUND (naming only the caller's collections, never another namespace's)
 * when there is none.
 */
async function usableCollection(name: string, scope: CollectionScope): Promise<void> {
  const { configured, baseDir } = scope.collections;
  const all = await listCollections(scope.memory, configured, baseDir ? { baseDir } : {});
  const found = all.find((definition) => definition.name === name);
  if (found && canUse(scope.access, found.namespace)) return;
  if (found) throw forbidden(name);
  const visible = all.filter((definition) => canUse(scope.access, definition.namespace));
  const known = visible.length ? ` (yours: ${visible.map((d) => d.name).join(", ")})` : "";
  throw new NotFoundError(
    `no collection "${name}"${known}: list them (GET /v1/collections, memory_collection_list) and use one of those names.`,
  );
}

/** Removes a collection's index (never its files), if the caller may use its namespace. */
export async function removeCollectionFor(name: string, scope: CollectionScope) {
  await usableCollection(name, scope);
  return removeCollection(scope.memory, name, scope.collections.configured);
}

/** Syncs every collection the caller may use, or one. */
export async function syncCollectionsFor(
  input: { name?: string | undefined },
  scope: CollectionScope,
): Promise<CollectionSyncReport[]> {
  if (input.name !== undefined) await usableCollection(input.name, scope);
  const { configured, baseDir } = scope.collections;
  const names =
    input.name !== undefined
      ? [input.name]
      : (await visibleCollections(scope)).map((definition) => definition.name);
  return syncCollections(scope.memory, {
    configured,
    ...(baseDir ? { baseDir } : {}),
    names,
  });
}
