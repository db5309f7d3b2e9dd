import { InvalidInputError } from "./errors.js";
import { describe, nullField } from "./field-checks.js";
import { normalizeTimestamp } from "./timestamps.js";
import type { ConflictRecord, SupersessionRecord } from "./types/conflict-decision.js";
import { validateKey } from "./validation.js";

/**
 * The largest decision record an entry keeps (UTF-16 code units of its JSON). A record built by
 * `store` stays far below it (five candidates, reasons cut at 300 characters); the limit is for
 * records that come in through an import or a snapshot.
 */
export const DECISION_RECORD_MAX_CHARS = 16_384;

function plainObject(field: string, value: unknown): Record<string, unknown> {
  if (value === null) throw nullField(field);
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidInputError(
      `${field} must be an object as \`export\` writes it, got ${Array.isArray(value) ? "an array" : describe(value)}.`,
    );
  }
  const size = JSON.stringify(value).length;
  if (size > DECISION_RECORD_MAX_CHARS) {
    throw new InvalidInputError(
      `${field} is ${size} characters of JSON; the limit is ${DECISION_RECORD_MAX_CHARS}. Leave the field out (the entry is kept without it).`,
    );
  }
  return value as Record<string, unknown>;
}

function keyList(field: string, value: unknown): void {
  if (!Array.isArray(value)) {
    throw new InvalidInputError(`${field} must be an array of keys, got ${describe(value)}.`);
  }
  for (const key of value) validateKey(key, field);
}

/** Checks a `supersessionRecord` given to `importEntries` (export writes it as is). */
export function validateSupersessionRecord(value: unknown): SupersessionRecord {
  const record = plainObject("supersessionRecord", value);
  validateKey(record.by, "supersessionRecord.by");
  normalizeTimestamp(record.at as string, "supersessionRecord.at");
  if (!["rules", "chat", "manual", "version"].includes(record.decidedBy as string)) {
    throw new InvalidInputError(
      `supersessionRecord.decidedBy must be "rules", "chat", "manual" or "version", got ${JSON.stringify(record.decidedBy)}.`,
    );
  }
  for (const field of ["rule", "reason"] as const) {
    if (record[field] !== undefined && typeof record[field] !== "string") {
      throw new InvalidInputError(
        `supersessionRecord.${field} must be a string, got ${describe(record[field])}.`,
      );
    }
  }
  return record as unknown as SupersessionRecord;
}

/** Checks a `conflictRecord` given to `importEntries` (export writes it as is). */
export function validateConflictRecord(value: unknown): ConflictRecord {
  const record = plainObject("conflictRecord", value);
  normalizeTimestamp(record.decidedAt as string, "conflictRecord.decidedAt");
  if (!["rules", "jaccard", "combined"].includes(record.mode as string)) {
    throw new InvalidInputError(
      `conflictRecord.mode must be "rules", "jaccard" or "combined", got ${JSON.stringify(record.mode)}.`,
    );
  }
  keyList("conflictRecord.superseded", record.superseded);
  if (record.flagged !== undefined) keyList("conflictRecord.flagged", record.flagged);
  if (record.linked !== undefined) keyList("conflictRecord.linked", record.linked);
  if (typeof record.candidatesSeen !== "number" || !Number.isInteger(record.candidatesSeen)) {
    throw new InvalidInputError(
      `conflictRecord.candidatesSeen must be a whole number, got ${describe(record.candidatesSeen)}.`,
    );
  }
  if (!Array.isArray(record.candidates)) {
    throw new InvalidInputError(
      `conflictRecord.candidates must be an array, got ${describe(record.candidates)}.`,
    );
  }
  for (const candidate of record.candidates) {
    const item = plainObject("conflictRecord.candidates[]", candidate);
    validateKey(item.key, "conflictRecord.candidates[].key");
    if (typeof item.score !== "number" || typeof item.superseded !== "boolean") {
      throw new InvalidInputError(
        "conflictRecord.candidates[] needs a number `score` and a boolean `superseded`.",
      );
    }
  }
  return record as unknown as ConflictRecord;
}
