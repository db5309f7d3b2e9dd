import {
  type EntryKey,
  type EntryRecord,
  type EntryUpsert,
  InvalidInputError,
  type KeyOptions,
  type MemoryEntry,
  parseVersionKey,
  validateKey,
  validateNamespace,
  versionKey,
  versionKeys,
} from "@memory/api";
import { versionSupersessionRecord } from "./conflicts/decision-record.js";
import type { FacadeContext } from "./facade-context.js";

/** What a same-key store adds to its write batch to keep the previous content. */
export interface VersionPlan {
  upserts: EntryUpsert[];
  deletes: EntryKey[];
  /** The key the previous content is kept under (`<key>::history:<n>`), when one is kept. */
  kept?: string;
}

const NOTHING: VersionPlan = { upserts: [], deletes: [] };

/** Newest first; equal times (impossible through `store`, see below) by slot. */
function newestFirst(a: MemoryEntry, b: MemoryEntry): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return (parseVersionKey(a.key)?.slot ?? 0) - (parseVersionKey(b.key)?.slot ?? 0);
}

/** The kept versions of `key`, newest first (every slot is read: one driver read). */
async function readVersions(
  context: FacadeContext,
  namespace: string,
  key: string,
): Promise<MemoryEntry[]> {
  const found = await context.driver.read(
    versionKeys(key).map((slot) => ({ namespace, key: slot })),
  );
  return found.filter((entry): entry is MemoryEntry => entry !== undefined).sort(newestFirst);
}

/**
 * Plans the version a store of `record` keeps: when `record` replaces the content of an existing
 * entry, the previous content goes to a free slot `<key>::history:<n>` (superseded by the key,
 * with the previous `updatedAt`), and the oldest versions beyond `history_versions` are deleted,
 * all in the store's own write batch. The same content stored again keeps nothing.
 *
 * `record.updatedAt` is moved 1 ms past the previous one when the clock has not moved on (two
 * stores in one millisecond, a clock set back), so versions are strictly ordered by time.
 *
 * Read, then written: two processes storing the same key at the same moment may both keep the
 * same previous content, or one may take the other's slot (one version is then lost, never the
 * current content).
 */
export async function planVersion(
  context: FacadeContext,
  record: EntryRecord,
): Promise<VersionPlan> {
  const keep = context.options.settings.historyVersions;
  if (keep === 0) return NOTHING;
  const { namespace, key } = record;
  const embedder = context.options.embedder;
  const [previous] = await context.driver.read([{ namespace, key }], {
    withEmbeddings: embedder !== undefined,
  });
  if (!previous || previous.content === record.content) return NOTHING;
  if (record.updatedAt <= previous.updatedAt) {
    record.updatedAt = new Date(Date.parse(previous.updatedAt) + 1).toISOString();
  }
  const versions = await readVersions(context, namespace, key);
  const kept = versions.slice(0, keep - 1);
  const used = new Set(kept.map((entry) => parseVersionKey(entry.key)!.slot));
  let slot = 1;
  while (used.has(slot)) slot++;
  const slotKey = versionKey(key, slot);
  const version: EntryRecord = {
    id: crypto.randomUUID(),
    key: slotKey,
    content: previous.content,
    category: previous.category,
    namespace,
    supersededBy: key,
    supersessionRecord: versionSupersessionRecord(key, record.updatedAt),
    // When that content was stored: `history` lists versions by it.
    createdAt: previous.updatedAt,
    updatedAt: previous.updatedAt,
  };
  if (previous.sessionId !== undefined) version.sessionId = previous.sessionId;
  if (previous.importance !== undefined) version.importance = previous.importance;
  // The decision made when that content was stored stays with it.
  if (previous.conflictRecord !== undefined) version.conflictRecord = previous.conflictRecord;
  // The stored vector of the previous content is that version's vector: no provider call.
  const vector =
    embedder && previous.embedding?.length === embedder.dimensions ? previous.embedding : undefined;
  return {
    // A reused slot is a new version: new id and times, not an update of the one it held.
    upserts: [
      { entry: version, replaceId: true, replaceCreatedAt: true, ...(vector ? { vector } : {}) },
    ],
    // Deletes run after upserts in a batch: never delete the slot just written.
    deletes: versions
      .slice(keep - 1)
      .filter((entry) => entry.key !== slotKey)
      .map((entry) => ({ namespace, key: entry.key })),
    kept: slotKey,
  };
}

/** The kept versions of `key` a `forget` of it deletes with it (none for a version's own key). */
export async function versionsToForget(
  context: FacadeContext,
  namespace: string,
  key: string,
): Promise<EntryKey[]> {
  if (parseVersionKey(key)) return [];
  const versions = await readVersions(context, namespace, key);
  return versions.map((entry) => ({ namespace, key: entry.key }));
}

/** `history(key)`: the entry, then its kept versions, newest first. */
export async function keyHistory(
  context: FacadeContext,
  key: string,
  options: KeyOptions,
): Promise<MemoryEntry[]> {
  const namespace = validateNamespace(options.namespace);
  const name = validateKey(key);
  const version = parseVersionKey(name);
  if (version) {
    throw new InvalidInputError(
      `${JSON.stringify(name)} is a kept version of ${JSON.stringify(version.key)}, not a key with a history of its own: ask for the history of ${JSON.stringify(version.key)}.`,
    );
  }
  const [current] = await context.driver.read([{ namespace, key: name }]);
  const versions = await readVersions(context, namespace, name);
  return current ? [current, ...versions] : versions;
}
