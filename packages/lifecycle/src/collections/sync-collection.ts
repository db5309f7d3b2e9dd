import { randomUUID } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import {
  collectionKey,
  type ImportEntry,
  InvalidInputError,
  type Memory,
  parseCollectionKey,
} from "@memory/api";
import {
  type CollectionDefinition,
  collectionWriterOf,
  type IndexedNote,
  MANIFEST_SHARDS,
  manifestShard,
  readManifest,
  readStoredCollections,
  writeManifestShard,
  writeStoredCollections,
} from "@memory/core";
import { compileCollectionPattern } from "./collection-glob.js";
import type { CollectionProblem, CollectionSyncReport } from "./collection-types.js";
import { parseFrontmatter } from "./frontmatter.js";
import { noteFragments } from "./note-fragments.js";
import { contentTypeFromPath, noteTitle } from "./note-metadata.js";
import { MAX_NOTE_BYTES, readNote } from "./read-note.js";
import { walkNotes } from "./walk-notes.js";

/** How long one sync may hold its collection's lease before another process may take over. */
const SYNC_LEASE_MS = 10 * 60_000;

export interface SyncCollectionOptions {
  /** The largest note read, in bytes (default MAX_NOTE_BYTES). */
  maxNoteBytes?: number;
  /** Stops between steps; what was written stays consistent (the next sync finishes it). */
  signal?: AbortSignal;
}

/** A note read and cut this sync, waiting to be written. */
interface PendingNote {
  path: string;
  note: IndexedNote;
  entries: ImportEntry[];
}

/** The lease that keeps two processes from syncing one collection at once. */
export function syncLeaseName(collection: string): string {
  return `collection-sync:${collection}`;
}

/**
 * Brings a collection's index in line with its folder: new and changed notes (by content hash)
 * are cut into fragments and written, notes gone from the folder are removed, and an unchanged
 * note is not touched at all. A fragment whose text is already stored (a renamed note, a
 * section that did not change) is written with the stored embedding: no provider call. A file
 * that cannot be read is a problem of the report and keeps what was indexed before.
 */
export async function syncCollection(
  memory: Memory,
  definition: CollectionDefinition,
  options: SyncCollectionOptions = {},
): Promise<CollectionSyncReport> {
  const report = emptyReport(definition.name);
  const pattern = compileCollectionPattern(definition.pattern);
  await checkRoot(definition);
  const writer = collectionWriterOf(memory);
  const holder = randomUUID();
  const lease = await memory.acquireLease(syncLeaseName(definition.name), holder, SYNC_LEASE_MS);
  if (!lease) return { ...report, busy: true };
  try {
    await recordDefinition(memory, definition);
    const indexed = await readManifest(memory, definition.name);
    const seen = new Set<string>();
    const pending: PendingNote[] = [];
    const retimed: { path: string; note: IndexedNote }[] = [];
    for await (const item of walkNotes(definition.path, pattern)) {
      if ("problem" in item) {
        report.problems.push(item.problem);
        continue;
      }
      const relative = item.note;
      seen.add(relative);
      const before = indexed.get(relative);
      const stats = await stat(path.join(definition.path, relative)).catch(() => undefined);
      // A note whose size and modification time are the ones it was read with is not read again
      // (a one-shot recall checks a 10,000-note folder this way); any other is read and hashed.
      if (before && stats && before.size === stats.size && before.mtimeMs === stats.mtimeMs) {
        report.notes++;
        report.unchanged++;
        continue;
      }
      const read = await readNote(
        definition.path,
        relative,
        options.maxNoteBytes ?? MAX_NOTE_BYTES,
      );
      if ("problem" in read) {
        report.problems.push(read.problem);
        continue;
      }
      report.notes++;
      const seenAs = stats ? { size: stats.size, mtimeMs: stats.mtimeMs } : {};
      if (before?.hash === read.hash) {
        report.unchanged++;
        // Touched but not changed: only the size and time are recorded, nothing is re-embedded.
        retimed.push({ path: relative, note: { ...before, ...seenAs } });
        continue;
      }
      if (before) report.changed++;
      else report.added++;
      const note = cutNote(definition, relative, read.text, read.hash, report.problems);
      Object.assign(note.note, seenAs);
      pending.push(note);
    }
    options.signal?.throwIfAborted();
    const gone = [...indexed.keys()].filter((relative) => !seen.has(relative));
    report.removed = gone.length;
    const stale = new Set<string>();
    for (const relative of [...pending.map((note) => note.path), ...gone])
      for (const [start, end] of indexed.get(relative)?.ranges ?? [])
        stale.add(key(definition, relative, start, end));
    await writeNotes(memory, writer, definition, pending, stale, report);
    options.signal?.throwIfAborted();
    report.fragments.deleted = await writer.remove(definition.namespace, [...stale]);
    const touched = new Set<number>();
    for (const relative of gone) {
      indexed.delete(relative);
      touched.add(manifestShard(relative));
    }
    for (const { path: relative, note } of [...retimed, ...pending]) {
      indexed.set(relative, note);
      touched.add(manifestShard(relative));
    }
    await saveManifest(memory, definition.name, indexed, touched);
    report.fragments.deleted += await sweepOrphans(memory, writer, definition, indexed);
    return report;
  } finally {
    await memory.releaseLease(lease);
  }
}

function key(definition: CollectionDefinition, note: string, startLine: number, endLine: number) {
  return collectionKey({ collection: definition.name, path: note, startLine, endLine });
}

/** The folder must still be the one the collection was defined with (not moved, not a link). */
async function checkRoot(definition: CollectionDefinition): Promise<void> {
  let real: string;
  try {
    real = await realpath(definition.path);
  } catch (error) {
    throw new InvalidInputError(
      `collection "${definition.name}": its folder ${definition.path} cannot be read (${(error as Error).message}); nothing was changed. Restore the folder, or remove the collection (memory collection remove ${definition.name}).`,
      { cause: error, details: { collection: definition.name, path: definition.path } },
    );
  }
  if (real !== definition.path)
    throw new InvalidInputError(
      `collection "${definition.name}": ${definition.path} is now a symbolic link to ${real}; a collection never indexes outside its folder. Add ${real} as a collection of its own instead.`,
      { details: { collection: definition.name, path: definition.path, target: real } },
    );
}

/** A configured collection's definition is kept in the store too, so recall sees its context. */
async function recordDefinition(memory: Memory, definition: CollectionDefinition): Promise<void> {
  const stored = await readStoredCollections(memory);
  if (JSON.stringify(stored[definition.name]) === JSON.stringify(definition)) return;
  stored[definition.name] = definition;
  await writeStoredCollections(memory, stored);
}

/** Reads a note's frontmatter, title and type, and cuts it into entries. */
function cutNote(
  definition: CollectionDefinition,
  relative: string,
  text: string,
  hash: string,
  problems: CollectionProblem[],
): PendingNote {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const frontmatter = parseFrontmatter(lines, relative);
  problems.push(...frontmatter.problems);
  const { fields } = frontmatter;
  const title = noteTitle(fields.title, lines.slice(frontmatter.bodyStart), relative);
  const fragments = noteFragments(lines, frontmatter.bodyStart);
  const entries = fragments.map(
    (fragment): ImportEntry => ({
      key: key(definition, relative, fragment.startLine, fragment.endLine),
      content: fragment.text,
      category: definition.name,
      namespace: definition.namespace,
      ...(fields.authoredAt ? { createdAt: fields.authoredAt } : {}),
    }),
  );
  return {
    path: relative,
    note: {
      hash,
      title,
      contentType: fields.contentType ?? contentTypeFromPath(relative),
      ranges: fragments.map((fragment) => [fragment.startLine, fragment.endLine]),
    },
    entries,
  };
}

/**
 * Writes the fragments of new and changed notes. A fragment already stored under the same key
 * with the same text stays as it is; one whose text is stored under a stale key (lines moved,
 * note renamed) takes that key's embedding. Stale keys written again are kept, not deleted.
 */
async function writeNotes(
  memory: Memory,
  writer: ReturnType<typeof collectionWriterOf>,
  definition: CollectionDefinition,
  pending: PendingNote[],
  stale: Set<string>,
  report: CollectionSyncReport,
): Promise<void> {
  const staleKeys = [...stale];
  const stored = await writer.read(definition.namespace, staleKeys);
  const byKey = new Map<string, string>();
  const vectorOf = new Map<string, number[]>();
  stored.forEach((entry) => {
    if (!entry) return;
    byKey.set(entry.key, entry.content);
    if (entry.embedding) vectorOf.set(entry.content, entry.embedding);
  });
  const toWrite: { note: PendingNote; entry: ImportEntry }[] = [];
  for (const note of pending) {
    for (const entry of note.entries) {
      if (stale.has(entry.key)) {
        stale.delete(entry.key);
        if (byKey.get(entry.key) === entry.content) continue;
      }
      const vector = vectorOf.get(entry.content);
      if (vector) report.fragments.reusedEmbeddings++;
      toWrite.push({ note, entry: vector ? { ...entry, embedding: vector } : entry });
    }
  }
  if (toWrite.length === 0) return;
  const imported = await memory.importEntries(toWrite.map((item) => item.entry));
  report.fragments.written = imported.imported;
  for (const rejection of imported.rejected) {
    const { note, entry } = toWrite[rejection.index]!;
    const parts = parseCollectionKey(entry.key);
    report.problems.push({
      path: note.path,
      ...(parts ? { line: parts.startLine } : {}),
      code: "FRAGMENT_REJECTED",
      message: `fragment not indexed: ${rejection.message}`,
    });
    if (parts)
      note.note.ranges = note.note.ranges.filter(
        ([start, end]) => start !== parts.startLine || end !== parts.endLine,
      );
  }
}

async function saveManifest(
  memory: Memory,
  collection: string,
  indexed: Map<string, IndexedNote>,
  touched: Set<number>,
): Promise<void> {
  const shards = Array.from({ length: MANIFEST_SHARDS }, () => ({}) as Record<string, IndexedNote>);
  for (const [relative, note] of indexed) shards[manifestShard(relative)]![relative] = note;
  for (const shard of touched) await writeManifestShard(memory, collection, shard, shards[shard]!);
}

/**
 * Fragments the manifest does not list (a sync that stopped between its writes) are deleted.
 * Costs one count when nothing is left over, a scan of the collection's keys otherwise.
 */
async function sweepOrphans(
  memory: Memory,
  writer: ReturnType<typeof collectionWriterOf>,
  definition: CollectionDefinition,
  indexed: Map<string, IndexedNote>,
): Promise<number> {
  const filter = { namespace: definition.namespace, categories: [definition.name] };
  let expected = 0;
  for (const note of indexed.values()) expected += note.ranges.length;
  if ((await memory.count(filter)) === expected) return 0;
  const listed = new Set<string>();
  for (const [relative, note] of indexed)
    for (const [start, end] of note.ranges) listed.add(key(definition, relative, start, end));
  const orphans: string[] = [];
  const page = 1000;
  for (let offset = 0; ; offset += page) {
    const entries = await memory.list({ ...filter, limit: page, offset });
    for (const entry of entries) {
      const parts = parseCollectionKey(entry.key);
      if (parts?.collection === definition.name && !listed.has(entry.key)) orphans.push(entry.key);
    }
    if (entries.length < page) break;
  }
  return orphans.length > 0 ? writer.remove(definition.namespace, orphans) : 0;
}

/** A sync report that counts nothing yet. */
export function emptyReport(collection: string): CollectionSyncReport {
  return {
    collection,
    notes: 0,
    added: 0,
    changed: 0,
    unchanged: 0,
    removed: 0,
    fragments: { written: 0, reusedEmbeddings: 0, deleted: 0 },
    problems: [],
  };
}
