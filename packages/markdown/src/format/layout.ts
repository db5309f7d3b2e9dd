import { createHash } from "node:crypto";
import { CUSTOM_CATEGORY_PATTERN, DEFAULT_NAMESPACE } from "@memory/api";

/**
 * Where entries live in the memory tree (README, "Layout"):
 *
 *     MEMORY.md                     core entries of the default namespace
 *     memory/YYYY-MM-DD.md          daily and conversation entries, by the entry's creation date (UTC)
 *     memory/<category>.md          custom categories
 *     namespaces/<encoded>/...      the same layout for every other namespace
 *     .memory-state/                lock, leases, job state and the derived index (not truth);
 *                                   usage events and records (not derivable from the files)
 *
 * Paths are relative to the root, with `/` separators.
 */

export const CORE_FILE = "MEMORY.md";
export const MEMORY_DIR = "memory";
export const NAMESPACES_DIR = "namespaces";
export const STATE_DIR = ".memory-state";
/** In a hashed namespace directory: the namespace itself (UTF-8), for names too long to encode. */
export const NAMESPACE_NAME_FILE = ".namespace";
/** Category of free text in files whose name is not a category (nested files, odd names). */
export const NOTES_CATEGORY = "notes";

/**
 * A daily log's file name: the day, optionally followed by a time of that day (the files other
 * agents write per session: `2026-03-28-1442.md`, `2026-03-28_14-42.md`, `2026-03-28T144210.md`).
 */
const DAILY_FILE = /^(\d{4}-\d{2}-\d{2})(?:[-_T]([01]\d|2[0-3])-?([0-5]\d)(?:-?([0-5]\d))?)?\.md$/;
const SAFE = /^[a-z0-9_-]$/;
/** Longest encoded namespace directory name; longer names are hashed (`~` + 32 hex digits). */
const MAX_ENCODED_LENGTH = 200;

/**
 * A namespace as a directory name: every UTF-8 byte outside `[a-z0-9_-]` percent-encoded with
 * upper-case hex (so `Team` and `team` differ on case-insensitive file systems, and `.`/`..`
 * cannot occur). Names whose encoding is longer than 200 characters become `~` + the first 32
 * hex digits of their SHA-256, with the name in a `.namespace` file inside.
 */
export function encodeNamespace(namespace: string): string {
  let encoded = "";
  for (const character of namespace) {
    if (SAFE.test(character)) encoded += character;
    else
      for (const byte of Buffer.from(character, "utf8"))
        encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  if (encoded.length <= MAX_ENCODED_LENGTH) return encoded;
  return `~${createHash("sha256").update(namespace, "utf8").digest("hex").slice(0, 32)}`;
}

/** True for a directory name `encodeNamespace` would write as a hash. */
export function isHashedNamespace(name: string): boolean {
  return /^~[0-9a-f]{32}$/.test(name);
}

/** The namespace of an encoded directory name, or undefined when it is not one. */
export function decodeNamespace(name: string): string | undefined {
  if (!/^(?:[a-z0-9_-]|%[0-9A-F]{2})+$/.test(name)) return undefined;
  try {
    const bytes: number[] = [];
    for (let i = 0; i < name.length; ) {
      if (name[i] === "%") {
        bytes.push(Number.parseInt(name.slice(i + 1, i + 3), 16));
        i += 3;
      } else {
        bytes.push(name.charCodeAt(i));
        i += 1;
      }
    }
    const namespace = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
      Uint8Array.from(bytes),
    );
    // Only the canonical spelling: one namespace, one directory.
    return encodeNamespace(namespace) === name ? namespace : undefined;
  } catch {
    return undefined;
  }
}

/** The directory (relative, "" for the root) holding a namespace's files. */
export function namespaceDir(namespace: string): string {
  return namespace === DEFAULT_NAMESPACE ? "" : `${NAMESPACES_DIR}/${encodeNamespace(namespace)}`;
}

function join(dir: string, file: string): string {
  return dir === "" ? file : `${dir}/${file}`;
}

/** The UTC date (`YYYY-MM-DD`) of an ISO timestamp. */
export function dateOf(iso: string): string {
  return iso.slice(0, 10);
}

/** The file an entry of `category` created at `createdAt` belongs in. */
export function entryFile(namespace: string, category: string, createdAt: string): string {
  const dir = namespaceDir(namespace);
  if (category === "core") return join(dir, CORE_FILE);
  if (category === "daily" || category === "conversation")
    return join(dir, `${MEMORY_DIR}/${dateOf(createdAt)}.md`);
  return join(dir, `${MEMORY_DIR}/${categoryFileName(category)}.md`);
}

const hexOf = (character: string) =>
  `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/**
 * The file name (without `.md`) of a custom category: the name itself, with upper-case letters
 * percent-encoded (so `Notes` and `notes` stay two files on case-insensitive file systems) and,
 * for a name that looks like a date, its first character too (so it is not read as a daily log).
 */
export function categoryFileName(category: string): string {
  const encoded = category.replace(/[A-Z]/g, hexOf);
  return DAILY_FILE.test(`${category}.md`)
    ? `${hexOf(category[0] as string)}${encoded.slice(1)}`
    : encoded;
}

/** The custom category a file name (without `.md`) holds, or undefined. */
export function categoryOfFileName(name: string): string | undefined {
  if (CUSTOM_CATEGORY_PATTERN.test(name)) return name; // hand-made files: any valid name
  if (!/^(?:[A-Za-z0-9_-]|%[0-9A-F]{2})+$/.test(name)) return undefined;
  const decoded = name.replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return CUSTOM_CATEGORY_PATTERN.test(decoded) && categoryFileName(decoded) === name
    ? decoded
    : undefined;
}

/**
 * The time a daily log's file name gives (`memory/2026-03-28-1442.md`: 2026-03-28T14:42Z; the
 * day at 00:00 UTC without a time), or undefined for any other name.
 */
export function dailyFileTime(name: string): string | undefined {
  const match = DAILY_FILE.exec(name);
  if (!match) return undefined;
  const [, day, hours = "00", minutes = "00", seconds = "00"] = match;
  const time = `${day}T${hours}:${minutes}:${seconds}.000Z`;
  const parsed = Date.parse(time);
  // Only a real calendar day (not 2026-02-30): the time must print back the same.
  return !Number.isNaN(parsed) && new Date(parsed).toISOString() === time ? time : undefined;
}

/** What a file of the tree holds, judged from its path relative to its namespace directory. */
export interface FileRole {
  /** Category of entry lines (and free text) in this file. */
  category: string;
  /** Entry lines may carry `[Conversation] ` (daily files). */
  daily: boolean;
  /**
   * Daily files whose name is a real day: the time the name gives ({@link dailyFileTime}),
   * used for entries that record no time when the file was last changed on another day.
   */
  loggedAt?: string;
  /** Entry lines are read as entries (false: free text only). */
  entries: boolean;
}

/** The role of a file, from its path inside a namespace directory (`MEMORY.md`, `memory/x.md`). */
export function fileRole(inner: string): FileRole | undefined {
  if (!inner.endsWith(".md")) return undefined;
  if (inner === CORE_FILE) return { category: "core", daily: false, entries: true };
  if (!inner.startsWith(`${MEMORY_DIR}/`)) return undefined;
  const name = inner.slice(MEMORY_DIR.length + 1);
  if (name.includes("/")) return { category: NOTES_CATEGORY, daily: false, entries: false };
  if (DAILY_FILE.test(name)) {
    const loggedAt = dailyFileTime(name);
    return { category: "daily", daily: true, entries: true, ...(loggedAt ? { loggedAt } : {}) };
  }
  const base = name.slice(0, -3);
  if (base === "daily" || base === "conversation")
    return { category: base, daily: base === "daily", entries: true };
  const category = categoryOfFileName(base);
  if (category !== undefined && category !== "core")
    return { category, daily: false, entries: true };
  return { category: NOTES_CATEGORY, daily: false, entries: false };
}

/** The first line of a file the backend creates. */
export function fileTitle(inner: string, namespace: string): string {
  const suffix = namespace === DEFAULT_NAMESPACE ? "" : ` (${namespace.replace(/\s+/g, " ")})`;
  if (inner === CORE_FILE) return `# Long-term memory${suffix}`;
  const name = inner.slice(MEMORY_DIR.length + 1, -3);
  if (DAILY_FILE.test(`${name}.md`)) return `# Daily log ${name}${suffix}`;
  return `# ${categoryOfFileName(name) ?? name}${suffix}`;
}
