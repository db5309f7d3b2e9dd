import type { ConflictRecord, MemoryEntry, SupersessionRecord } from "@memory/api";

/**
 * The Markdown snapshot format (version 1), shared by `memory export --format snapshot`,
 * `MEMORY_SNAPSHOT.md` and hydration; `parseSnapshot` reads it back. See the "Snapshot format"
 * section of packages/api/README.md.
 *
 *     # MEMORY snapshot
 *
 *     <!-- memory-snapshot v1; written 2026-11-23T09:18:36.123Z by memory 0.1.0 -->
 *
 *     ## namespace: default
 *
 *     - **user_lang**: Prefers TypeScript <!-- memory {"id":"…","createdAt":"…","updatedAt":"…","importance":0.9} -->
 *
 * One line per entry. The visible key and content are the exact values with a few backslash
 * escapes (Markdown's own, so rendered text stays readable): `\\`, `\n`, `\r`, `\*` (keys),
 * `\<` before `!--`, `\>` after `--`, and `\u{HEX}` for other control characters and line
 * separators. The metadata is JSON in a trailing HTML comment, with `<`, `>` and `--` written as
 * `\u003c`, `\u003e`, `\u002d\u002d`, so no value can end the comment early.
 */
export const SNAPSHOT_FORMAT_VERSION = 1;

/** The first line of every snapshot. */
export const SNAPSHOT_TITLE = "# MEMORY snapshot";

/** The heading that starts a namespace's section; the rest of the line is the namespace. */
export const SNAPSHOT_NAMESPACE_PREFIX = "## namespace: ";

/** Starts the trailing metadata comment of an entry line. */
export const SNAPSHOT_METADATA_OPEN = " <!-- memory ";

/** Ends the trailing metadata comment of an entry line. */
export const SNAPSHOT_METADATA_CLOSE = " -->";

/** The entry fields a snapshot carries besides key, content and namespace. */
export interface SnapshotMetadata {
  id?: string;
  createdAt?: string;
  updatedAt?: string;
  importance?: number;
  sessionId?: string;
  /** Only written when not `core`. */
  category?: string;
  supersededBy?: string;
  /** Why it is superseded (docs/history.md). */
  supersessionRecord?: SupersessionRecord;
  /** What conflict detection decided when it was stored. */
  conflictRecord?: ConflictRecord;
}

export interface SnapshotHeaderOptions {
  /** When the snapshot was written (ISO-8601); default now. */
  writtenAt?: string;
  /** What wrote it, e.g. `memory 0.1.0`. */
  generator?: string;
}

// Control characters (except tab), DEL, C1 controls and the Unicode line/paragraph separators:
// editors and line-splitting tools may treat them as line ends or drop them.
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

function hex(character: string): string {
  return `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`;
}

/** Escapes a visible value: backslashes, line breaks, hidden characters and comment markers. */
function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(HIDDEN, hex)
    .replace(/<!--/g, "\\<!--")
    .replace(/-->/g, "--\\>");
}

/** Escapes a key: like content, plus `*`, so `**: ` cannot end it early. */
export function escapeSnapshotKey(key: string): string {
  return escapeText(key).replace(/\*/g, "\\*");
}

/** Escapes content for the visible part of an entry line. */
export function escapeSnapshotContent(content: string): string {
  return escapeText(content);
}

/**
 * Escapes a namespace for its heading. Namespaces hold no control characters; a backslash is
 * doubled and trailing whitespace is written as `\u{HEX}`, because editors strip it.
 */
export function escapeSnapshotNamespace(namespace: string): string {
  return escapeText(namespace).replace(/\s+$/u, (spaces) => [...spaces].map(hex).join(""));
}

function jsonEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * JSON that cannot end (or nest in) an HTML comment, with DEL, C1 controls and line separators
 * escaped too (JSON.stringify leaves them raw), so the line stays one line everywhere.
 */
export function encodeSnapshotMetadata(metadata: SnapshotMetadata): string {
  return JSON.stringify(metadata)
    .replace(/[\u007f-\u009f\u2028\u2029]/g, (character) => jsonEscape(character))
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/--/g, "\\u002d\\u002d");
}

/** The metadata of an entry, in a fixed field order. */
export function snapshotMetadata(entry: MemoryEntry): SnapshotMetadata {
  const metadata: SnapshotMetadata = {
    id: entry.id,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
  if (entry.importance !== undefined && entry.importance !== null)
    metadata.importance = entry.importance;
  if (entry.sessionId !== undefined && entry.sessionId !== null)
    metadata.sessionId = entry.sessionId;
  if (entry.category !== "core") metadata.category = entry.category;
  if (entry.supersededBy !== undefined && entry.supersededBy !== null)
    metadata.supersededBy = entry.supersededBy;
  if (entry.supersessionRecord !== undefined)
    metadata.supersessionRecord = entry.supersessionRecord;
  if (entry.conflictRecord !== undefined) metadata.conflictRecord = entry.conflictRecord;
  return metadata;
}

/** The title and the format comment that start a snapshot. */
export function formatSnapshotHeader(options: SnapshotHeaderOptions = {}): string {
  const writtenAt = options.writtenAt ?? new Date().toISOString();
  const by = options.generator === undefined ? "" : ` by ${options.generator}`;
  return `${SNAPSHOT_TITLE}\n\n<!-- memory-snapshot v${SNAPSHOT_FORMAT_VERSION}; written ${writtenAt}${by} -->\n`;
}

/** The heading of a namespace's section (with the blank lines around it). */
export function formatSnapshotNamespace(namespace: string): string {
  return `\n${SNAPSHOT_NAMESPACE_PREFIX}${escapeSnapshotNamespace(namespace)}\n\n`;
}

/** One entry line, `- **key**: content <!-- memory {...} -->`, ending with a newline. */
export function formatSnapshotEntry(entry: MemoryEntry): string {
  const metadata = encodeSnapshotMetadata(snapshotMetadata(entry));
  return `- **${escapeSnapshotKey(entry.key)}**: ${escapeSnapshotContent(entry.content)}${SNAPSHOT_METADATA_OPEN}${metadata}${SNAPSHOT_METADATA_CLOSE}\n`;
}

/**
 * A whole snapshot in memory: entries grouped by namespace (in order of first appearance), each
 * group in the given order. For large stores, stream with `snapshotChunks` instead.
 */
export function formatSnapshot(
  entries: Iterable<MemoryEntry>,
  options: SnapshotHeaderOptions = {},
): string {
  const groups = new Map<string, MemoryEntry[]>();
  for (const entry of entries) {
    const group = groups.get(entry.namespace);
    if (group) group.push(entry);
    else groups.set(entry.namespace, [entry]);
  }
  let text = formatSnapshotHeader(options);
  for (const [namespace, group] of groups) {
    text += formatSnapshotNamespace(namespace);
    for (const entry of group) text += formatSnapshotEntry(entry);
  }
  return text;
}
