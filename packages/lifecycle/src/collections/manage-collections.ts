import {
  ConfigError,
  type Memory,
  MemoryError,
  NotFoundError,
  parseCollectionKey,
} from "@memory/api";
import { collectionWriterOf, MANIFEST_SHARDS, writeManifestShard } from "@memory/core";
import {
  type CollectionInput,
  forgetCollectionDefinition,
  listCollections,
  storedCollection,
} from "./collection-definitions.js";
import type { CollectionSyncReport } from "./collection-types.js";
import {
  emptyReport,
  type SyncCollectionOptions,
  syncCollection,
  syncLeaseName,
} from "./sync-collection.js";

export interface SyncCollectionsOptions extends SyncCollectionOptions {
  /** The `[collections.*]` tables of the configuration (`collectionsFromConfig`). */
  configured?: readonly CollectionInput[];
  /** Only these collections (default: every one). */
  names?: readonly string[];
  /** The folder relative configured paths start from (memory.toml's). */
  baseDir?: string;
}

/**
 * Syncs every collection (or the named ones), one after the other. A collection that cannot be
 * synced (its folder is gone) gets `error` in its report and the others go on.
 */
export async function syncCollections(
  memory: Memory,
  options: SyncCollectionsOptions = {},
): Promise<CollectionSyncReport[]> {
  const all = await listCollections(memory, options.configured ?? [], {
    ...(options.baseDir ? { baseDir: options.baseDir } : {}),
  });
  const wanted = options.names ?? all.map((definition) => definition.name);
  const reports: CollectionSyncReport[] = [];
  for (const name of wanted) {
    const definition = all.find((candidate) => candidate.name === name);
    if (!definition)
      throw new NotFoundError(
        `no collection "${name}"${all.length ? ` (known: ${all.map((d) => d.name).join(", ")})` : ""}: add it with \`memory collection add ${name} <folder>\`.`,
      );
    try {
      reports.push(await syncCollection(memory, definition, options));
    } catch (error) {
      if (!MemoryError.isInstance(error) || error.code !== "INVALID_INPUT") throw error;
      reports.push({ ...emptyReport(name), error: { code: error.code, message: error.message } });
    }
  }
  return reports;
}

/**
 * Removes a collection's index and its definition; the notes themselves are never touched. A
 * collection defined in memory.toml must leave the configuration first (or it would come back).
 */
export async function removeCollection(
  memory: Memory,
  name: string,
  configured: readonly CollectionInput[] = [],
): Promise<{ collection: string; deleted: number }> {
  if (configured.some((input) => input.name === name))
    throw new ConfigError(
      `collection "${name}" is defined in memory.toml ([collections.${name}]): delete that table first, then run \`memory collection remove ${name}\` to drop its index.`,
    );
  const definition = await storedCollection(memory, name);
  const writer = collectionWriterOf(memory);
  const lease = await memory.acquireLease(syncLeaseName(name), `remove-${process.pid}`, 60_000);
  if (!lease)
    throw new MemoryError(
      "CONFLICT",
      `collection "${name}" is being synced by another process; try again when it is done.`,
    );
  try {
    let deleted = 0;
    const filter = { namespace: definition.namespace, categories: [name] };
    // Collection keys only: memories that share the category name are never touched.
    const keys: string[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await memory.list({ ...filter, limit: 1000, offset });
      for (const entry of page)
        if (parseCollectionKey(entry.key)?.collection === name) keys.push(entry.key);
      if (page.length < 1000) break;
    }
    if (keys.length > 0) deleted = await writer.remove(definition.namespace, keys);
    for (let shard = 0; shard < MANIFEST_SHARDS; shard++)
      await writeManifestShard(memory, name, shard, {});
    await forgetCollectionDefinition(memory, name);
    return { collection: name, deleted };
  } finally {
    await memory.releaseLease(lease);
  }
}
