import { DEFAULT_NAMESPACE, type ImportEntry } from "@memory/api";
import {
  SNAPSHOT_METADATA_CLOSE,
  SNAPSHOT_METADATA_OPEN,
  SNAPSHOT_NAMESPACE_PREFIX,
  type SnapshotMetadata,
} from "./format.js";

/** An entry read from a snapshot, with the file line it came from (1-based). */
export interface SnapshotRecord {
  line: number;
  entry: ImportEntry & { namespace: string };
}

/** A line the parser could not read; the entry on it (if any) is left out. */
export interface SnapshotProblem {
  /** 1-based line number in the file. */
  line: number;
  message: string;
}

/** What `parseSnapshot` read. It never throws: bad lines become problems. */
export interface ParsedSnapshot {
  records: SnapshotRecord[];
  problems: SnapshotProblem[];
}

const ENTRY_PREFIX = "- **";
const KEY_END = "**: ";

/** Text read by {@link readEscaped}. */
export interface Scanned {
  value: string;
  /** Index just past the terminator, or -1 when the terminator was not found. */
  end: number;
  error?: string;
}

/**
 * Reads escaped text from `start` until an unescaped `terminator` (or the end of the line when
 * `terminator` is undefined). Unknown escapes are kept as written, so hand-written text like
 * `C:\path` survives.
 */
export function readEscaped(line: string, start: number, terminator?: string): Scanned {
  let value = "";
  let index = start;
  while (index < line.length) {
    const character = line[index] as string;
    if (character === "\\") {
      const next = line[index + 1];
      if (next === undefined) return { value, end: -1, error: "ends with a lone backslash" };
      if (next === "n") value += "\n";
      else if (next === "r") value += "\r";
      else if (next === "\\" || next === "*" || next === "<" || next === ">") value += next;
      else if (next === "u" && line[index + 2] === "{") {
        const close = line.indexOf("}", index + 3);
        const digits = close === -1 ? "" : line.slice(index + 3, close);
        const code = /^[0-9a-fA-F]{1,6}$/.test(digits) ? Number.parseInt(digits, 16) : Number.NaN;
        if (!(code <= 0x10ffff)) {
          return { value, end: -1, error: `has a bad \\u{...} escape at column ${index + 1}` };
        }
        value += String.fromCodePoint(code);
        index = close + 1;
        continue;
      } else value += `\\${next}`;
      index += 2;
      continue;
    }
    if (terminator !== undefined && line.startsWith(terminator, index)) {
      return { value, end: index + terminator.length };
    }
    value += character;
    index += 1;
  }
  return terminator === undefined ? { value, end: line.length } : { value, end: -1 };
}

const METADATA_FIELDS: Record<keyof SnapshotMetadata, MetadataType> = {
  id: "string",
  createdAt: "string",
  updatedAt: "string",
  importance: "number",
  sessionId: "string",
  category: "string",
  supersededBy: "string",
  supersessionRecord: "object",
  conflictRecord: "object",
};

/** The JSON type of a metadata field (objects: the decision records, checked by the import). */
export type MetadataType = "string" | "number" | "object";

/**
 * Reads the JSON of a metadata comment against a field table (name -> JSON type): fields not in
 * the table are ignored (a newer format version), a field of the wrong type is an error. Returns
 * the fields, or the problem as text.
 */
export function parseMetadataComment<T>(
  payload: string,
  fields: Record<string, MetadataType>,
): T | string {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch (error) {
    return `its metadata comment is not valid JSON (${(error as Error).message})`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "its metadata comment is not a JSON object";
  }
  const metadata: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const type = fields[name];
    if (type === undefined) continue; // fields of a newer format version are ignored
    if (typeof field !== type) return `its metadata field "${name}" must be a ${type}`;
    metadata[name] = field;
  }
  return metadata as T;
}

function parseEntry(line: string): ImportEntry | string {
  const key = readEscaped(line, ENTRY_PREFIX.length, KEY_END);
  if (key.error !== undefined) return `its key ${key.error}`;
  if (key.end === -1) return 'the key is not closed by "**: " (write `- **key**: content`)';
  // The metadata comment is the first unescaped " <!-- memory " (content escapes every "<!--").
  const content = readEscaped(line, key.end, SNAPSHOT_METADATA_OPEN);
  if (content.error !== undefined) return `its content ${content.error}`;
  const entry: ImportEntry = { key: key.value, content: content.value };
  if (content.end === -1) return entry;
  if (!line.endsWith(SNAPSHOT_METADATA_CLOSE) || line.length - 4 < content.end) {
    return 'its metadata comment is not closed by " -->" at the end of the line';
  }
  const metadata = parseMetadataComment<SnapshotMetadata>(
    line.slice(content.end, line.length - 4),
    METADATA_FIELDS,
  );
  if (typeof metadata === "string") return metadata;
  if (metadata.id !== undefined) entry.id = metadata.id;
  if (metadata.createdAt !== undefined) entry.createdAt = metadata.createdAt;
  if (metadata.updatedAt !== undefined) entry.updatedAt = metadata.updatedAt;
  if (metadata.importance !== undefined) entry.importance = metadata.importance;
  if (metadata.sessionId !== undefined) entry.sessionId = metadata.sessionId;
  entry.category = metadata.category ?? "core";
  if (metadata.supersededBy !== undefined) entry.supersededBy = metadata.supersededBy;
  if (metadata.supersessionRecord !== undefined)
    entry.supersessionRecord = metadata.supersessionRecord;
  if (metadata.conflictRecord !== undefined) entry.conflictRecord = metadata.conflictRecord;
  return entry;
}

/**
 * Reads a Markdown snapshot (see `formatSnapshot`). Blank lines, headings other than
 * `## namespace: ...` and lines that are HTML comments are ignored; entries before the first
 * namespace heading belong to `default`; any other line is reported as a problem with its line
 * number, and the rest of the file is still read. LF, CRLF and CR line ends are accepted (an
 * entry's own line breaks are escaped, so a raw CR is always a line end). Values are not
 * validated here: `importEntries` does that (and `hydrateFromSnapshot` maps its rejections back to
 * line numbers).
 */
export function parseSnapshot(text: string): ParsedSnapshot {
  const records: SnapshotRecord[] = [];
  const problems: SnapshotProblem[] = [];
  let namespace = DEFAULT_NAMESPACE;
  // The line of a namespace heading that could not be read: its entries are left out.
  let brokenHeading: number | undefined;
  const lines = (text.startsWith("\ufeff") ? text.slice(1) : text).split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const number = index + 1;
    if (line.startsWith(ENTRY_PREFIX)) {
      const entry = parseEntry(line);
      if (typeof entry === "string") problems.push({ line: number, message: `entry: ${entry}` });
      else if (brokenHeading !== undefined) {
        problems.push({
          line: number,
          message: `entry: its namespace heading (line ${brokenHeading}) could not be read`,
        });
      } else records.push({ line: number, entry: { ...entry, namespace } });
    } else if (line.startsWith(SNAPSHOT_NAMESPACE_PREFIX)) {
      const heading = readEscaped(line, SNAPSHOT_NAMESPACE_PREFIX.length);
      if (heading.error !== undefined) {
        problems.push({ line: number, message: `namespace heading ${heading.error}` });
        // Entries below it must not land in the previous namespace.
        brokenHeading = number;
      } else {
        namespace = heading.value;
        brokenHeading = undefined;
      }
    } else if (line.trim() === "" || line.startsWith("#") || /^\s*<!--.*-->\s*$/.test(line)) {
      // Blank lines, the title, other headings and comments carry no entries.
    } else {
      problems.push({
        line: number,
        message: 'not an entry: entry lines look like "- **key**: content" (the line is ignored)',
      });
    }
  }
  return { records, problems };
}
