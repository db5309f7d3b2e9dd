import type { ConflictRecord, EntryRelation, MemoryEntry, SupersessionRecord } from "@memory/api";
import {
  encodeSnapshotMetadata,
  escapeSnapshotContent,
  escapeSnapshotKey,
  type MetadataType,
  parseMetadataComment,
  readSnapshotEscaped,
} from "@memory/core";

/**
 * One entry line of a Markdown memory file (README, "File format"):
 *
 *     - **key**: content <!-- memory {"id":"…","createdAt":"…","updatedAt":"…"} -->
 *     - **key**: [Conversation] content <!-- memory {...} -->      (daily files only)
 *
 * Key and content use the escapes of the Markdown snapshot format of `@memory/api` (`\\`, `\n`,
 * `\r`, `\*` in keys, `\<!--`, `--\>`, `\u{HEX}` for control characters and line separators), so
 * any valid value fits on one line and reads back byte for byte. The metadata is JSON in a
 * trailing HTML comment, which rendered Markdown does not show. A line without the comment (a
 * hand-written entry) is read with the same escapes; unknown escapes such as `C:\path` stay.
 */

export const ENTRY_PREFIX = "- **";
export const KEY_END = "**: ";
export const METADATA_OPEN = " <!-- memory ";
export const METADATA_CLOSE = " -->";
export const CONVERSATION_PREFIX = "[Conversation] ";

/** The fields an entry line carries in its metadata comment. */
export interface EntryMetadata {
  id?: string;
  createdAt?: string;
  updatedAt?: string;
  importance?: number;
  sessionId?: string;
  supersededBy?: string;
  /** Why it is superseded; what its store decided (docs/history.md of the repository). */
  supersessionRecord?: SupersessionRecord;
  conflictRecord?: ConflictRecord;
  /** The entry's outgoing relations (docs/relations.md of the repository). */
  relations?: EntryRelation[];
  /** Pinned by a person (`Memory.pin`, or by hand: `"pinned":true`); written only when true. */
  pinned?: boolean;
  /** Left out of recall until this UTC instant (`Memory.snooze`); written only when set. */
  snoozedUntil?: string;
}

/** The metadata an entry line keeps for an entry (its id, times, importance, session, supersession). */
export function entryMetadata(entry: MemoryEntry): EntryMetadata {
  const metadata: EntryMetadata = {
    id: entry.id,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
  if (entry.importance !== undefined) metadata.importance = entry.importance;
  if (entry.sessionId !== undefined) metadata.sessionId = entry.sessionId;
  if (entry.supersededBy !== undefined) metadata.supersededBy = entry.supersededBy;
  if (entry.supersessionRecord !== undefined)
    metadata.supersessionRecord = entry.supersessionRecord;
  if (entry.conflictRecord !== undefined) metadata.conflictRecord = entry.conflictRecord;
  if (entry.relations !== undefined && entry.relations.length > 0)
    metadata.relations = entry.relations;
  if (entry.pinned === true) metadata.pinned = true;
  if (entry.snoozedUntil !== undefined) metadata.snoozedUntil = entry.snoozedUntil;
  return metadata;
}

/** What one entry line holds. */
export interface EntryLine {
  key: string;
  content: string;
  /** Written with the `[Conversation] ` prefix (daily files). */
  conversation: boolean;
  /** Absent for a hand-written line without a metadata comment. */
  metadata?: EntryMetadata;
}

/**
 * Field types for `parseMetadataComment`. `pinned` is a boolean, a JSON type the shared parser
 * does not know: it is read apart (`readPinned`) and only placed here for the field order.
 */
const METADATA_FIELDS: Record<Exclude<keyof EntryMetadata, "pinned">, MetadataType> = {
  id: "string",
  createdAt: "string",
  updatedAt: "string",
  importance: "number",
  sessionId: "string",
  supersededBy: "string",
  supersessionRecord: "object",
  conflictRecord: "object",
  relations: "object",
  snoozedUntil: "string",
};

/** Every field in the order it is written: the marks (pin, then snooze) after the rest. */
const FIELD_ORDER = [
  ...(Object.keys(METADATA_FIELDS) as (keyof EntryMetadata)[]).filter(
    (name) => name !== "snoozedUntil",
  ),
  "pinned",
  "snoozedUntil",
] as const satisfies readonly (keyof EntryMetadata)[];

/** The metadata in a fixed field order (so rewriting an unchanged entry changes no byte). */
function orderedMetadata(metadata: EntryMetadata): EntryMetadata {
  const ordered: EntryMetadata = {};
  for (const name of FIELD_ORDER) {
    const value = metadata[name];
    if (value !== undefined && value !== null) (ordered as Record<string, unknown>)[name] = value;
  }
  return ordered;
}

/**
 * Escapes content for an entry line. Content that starts with `[Conversation] ` has its `[`
 * written as `\u{5b}`, so only a real conversation entry starts with the visible prefix.
 */
export function escapeContent(content: string): string {
  const escaped = escapeSnapshotContent(content);
  return escaped.startsWith(CONVERSATION_PREFIX) ? `\\u{5b}${escaped.slice(1)}` : escaped;
}

/** One entry line, without its line break. */
export function formatEntryLine(line: EntryLine): string {
  const prefix = line.conversation ? CONVERSATION_PREFIX : "";
  const metadata =
    line.metadata === undefined
      ? ""
      : `${METADATA_OPEN}${encodeSnapshotMetadata(orderedMetadata(line.metadata))}${METADATA_CLOSE}`;
  return `${ENTRY_PREFIX}${escapeSnapshotKey(line.key)}${KEY_END}${prefix}${escapeContent(line.content)}${metadata}`;
}

/** True when a line is meant as an entry (`- **...`); `parseEntryLine` says whether it is one. */
export function looksLikeEntry(line: string): boolean {
  return line.startsWith(ENTRY_PREFIX);
}

/**
 * Reads one entry line. Returns a string (what is wrong) for a line that starts like an entry
 * but cannot be read; such a line is reported and kept as free text. `allowConversation`: the
 * `[Conversation] ` prefix means a conversation entry (daily files).
 */
export function parseEntryLine(line: string, allowConversation: boolean): EntryLine | string {
  if (!looksLikeEntry(line)) return "not an entry line";
  const key = readSnapshotEscaped(line, ENTRY_PREFIX.length, KEY_END);
  if (key.error !== undefined) return `its key ${key.error}`;
  if (key.end === -1) return 'the key is not closed by "**: " (write `- **key**: content`)';
  if (key.value.trim() === "") return "its key is blank";
  let start = key.end;
  const conversation = allowConversation && line.startsWith(CONVERSATION_PREFIX, start);
  if (conversation) start += CONVERSATION_PREFIX.length;
  // The metadata comment is the first unescaped " <!-- memory " (content escapes every "<!--").
  const content = readSnapshotEscaped(line, start, METADATA_OPEN);
  if (content.error !== undefined) return `its content ${content.error}`;
  if (content.value.trim() === "") return "its content is empty";
  if (content.end === -1) return { key: key.value, content: content.value, conversation };
  if (!line.endsWith(METADATA_CLOSE) || line.length - METADATA_CLOSE.length < content.end) {
    return 'its metadata comment is not closed by " -->" at the end of the line';
  }
  const metadata = parseMetadataComment<EntryMetadata>(
    line.slice(content.end, line.length - METADATA_CLOSE.length),
    METADATA_FIELDS,
  );
  if (typeof metadata === "string") return metadata;
  const pinned = readPinned(line.slice(content.end, line.length - METADATA_CLOSE.length));
  if (typeof pinned === "string") return pinned;
  if (pinned !== undefined) metadata.pinned = pinned;
  return { key: key.value, content: content.value, conversation, metadata };
}

/**
 * The `pinned` field of a metadata comment already read as valid JSON: a boolean, or the problem
 * (the same rule as a field of the wrong type). Parsed again only when the comment names it.
 */
function readPinned(payload: string): boolean | undefined | string {
  if (!payload.includes('"pinned"')) return undefined;
  const value = (JSON.parse(payload) as { pinned?: unknown }).pinned;
  if (value === undefined || typeof value === "boolean") return value;
  return 'its metadata field "pinned" must be a boolean (true or false)';
}
