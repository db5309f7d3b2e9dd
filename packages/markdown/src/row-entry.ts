import { createHash } from "node:crypto";
import {
  type MemoryEntry,
  normalizeEntryRelations,
  validateConflictRecord,
  validateContent,
  validateKey,
  validateSessionId,
  validateSupersessionRecord,
} from "@memory/api";
import type { EntryMetadata } from "./format/entry-line.js";
import type { FileRole } from "./format/layout.js";

const STORAGE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A deterministic UUID (version 8 layout) for rows that carry no id of their own. */
export function stableId(...parts: string[]): string {
  const hex = createHash("sha256").update(parts.join("\u0000"), "utf8").digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16] as string, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The entry an entry line of a file gives, or undefined (with a problem reported) when its key or
 * content is not valid; metadata that does not read is ignored, each with a problem.
 */
export function entryOfLine(
  found: { key: string; content: string; conversation: boolean },
  metadata: EntryMetadata | undefined,
  namespace: string,
  role: FileRole,
  fileTime: string,
  problem: (message: string) => void,
): MemoryEntry | undefined {
  try {
    validateKey(found.key);
    validateContent(found.content);
  } catch (error) {
    problem(`entry not loaded: ${(error as Error).message}`);
    return undefined;
  }
  const time = (
    value: string | undefined,
    field: string,
    otherwise = "the file's time is used",
  ): string | undefined => {
    if (value === undefined) return undefined;
    if (STORAGE_TIME.test(value) && !Number.isNaN(Date.parse(value))) return value;
    problem(
      `metadata ${field} ${JSON.stringify(value)} is not a UTC time like 2026-01-31T12:00:00.000Z; ${otherwise}`,
    );
    return undefined;
  };
  const createdAt = time(metadata?.createdAt, "createdAt") ?? fileTime;
  const entry: MemoryEntry = {
    id: metadata?.id ?? stableId("entry", namespace, found.key),
    key: found.key,
    content: found.content,
    category: found.conversation ? "conversation" : role.category,
    namespace,
    createdAt,
    updatedAt: time(metadata?.updatedAt, "updatedAt") ?? createdAt,
  };
  if (metadata?.sessionId !== undefined) {
    try {
      entry.sessionId = validateSessionId(metadata.sessionId);
    } catch (error) {
      problem(`metadata sessionId ignored: ${(error as Error).message}`);
    }
  }
  if (metadata?.importance !== undefined) {
    if (metadata.importance >= 0 && metadata.importance <= 1)
      entry.importance = metadata.importance;
    else problem("metadata importance ignored: it must be a number from 0 to 1");
  }
  if (metadata?.supersededBy !== undefined) {
    try {
      entry.supersededBy = validateKey(metadata.supersededBy, "supersededBy");
    } catch (error) {
      problem(`metadata supersededBy ignored: ${(error as Error).message}`);
    }
  }
  if (metadata?.supersessionRecord !== undefined && entry.supersededBy !== undefined) {
    try {
      entry.supersessionRecord = validateSupersessionRecord(metadata.supersessionRecord);
    } catch (error) {
      problem(`metadata supersessionRecord ignored: ${(error as Error).message}`);
    }
  }
  if (metadata?.conflictRecord !== undefined) {
    try {
      entry.conflictRecord = validateConflictRecord(metadata.conflictRecord);
    } catch (error) {
      problem(`metadata conflictRecord ignored: ${(error as Error).message}`);
    }
  }
  if (metadata?.relations !== undefined) {
    try {
      const relations = normalizeEntryRelations(metadata.relations, entry.key);
      if (relations.length > 0) entry.relations = relations;
    } catch (error) {
      problem(`metadata relations ignored: ${(error as Error).message}`);
    }
  }
  // `"pinned": false` written by hand reads as not pinned (the field is written only when true).
  if (metadata?.pinned === true) entry.pinned = true;
  const snoozedUntil = time(metadata?.snoozedUntil, "snoozedUntil", "the entry is not snoozed");
  if (snoozedUntil !== undefined) entry.snoozedUntil = snoozedUntil;
  return entry;
}
