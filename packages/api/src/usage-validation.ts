import { InvalidInputError } from "./errors.js";
import { normalizeTimestamp } from "./timestamps.js";
import type { UsageRecordExport } from "./types/memory-entry.js";
import type { UsageStats } from "./types/usage.js";

const COUNTS = ["surfaced", "used", "ignored", "queries", "days"] as const;
const RECENT_QUERIES_MAX = 1_000;

/** Validates `pinned` of an import entry. */
export function validatePinned(value: unknown): boolean {
  if (typeof value !== "boolean")
    throw new InvalidInputError(`pinned must be true or false, got ${JSON.stringify(value)}.`);
  return value;
}

/** Validates the `usage` of an import entry (what `export` wrote): counts, times, query hashes. */
export function validateUsageExport(value: unknown): UsageRecordExport {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidInputError(
      "usage must be an object like { stats: { surfaced, used, ignored, queries, days }, recentQueries: [] } (as export writes it).",
    );
  const raw = value as Record<string, unknown>;
  const stats = raw.stats as Record<string, unknown> | undefined;
  if (typeof stats !== "object" || stats === null)
    throw new InvalidInputError("usage.stats must be an object of counts.");
  const checked = {} as UsageStats;
  for (const name of COUNTS) {
    const count = stats[name];
    if (typeof count !== "number" || !Number.isInteger(count) || count < 0)
      throw new InvalidInputError(
        `usage.stats.${name} must be an integer >= 0, got ${JSON.stringify(count)}.`,
      );
    checked[name] = count;
  }
  if (stats.lastSurfacedAt !== undefined)
    checked.lastSurfacedAt = normalizeTimestamp(stats.lastSurfacedAt, "usage.stats.lastSurfacedAt");
  if (stats.lastUsedAt !== undefined)
    checked.lastUsedAt = normalizeTimestamp(stats.lastUsedAt, "usage.stats.lastUsedAt");
  const recent = raw.recentQueries ?? [];
  if (
    !Array.isArray(recent) ||
    recent.length > RECENT_QUERIES_MAX ||
    recent.some((query) => typeof query !== "string" || query.length > 4096)
  )
    throw new InvalidInputError(
      `usage.recentQueries must be an array of at most ${RECENT_QUERIES_MAX} query hashes.`,
    );
  const result: UsageRecordExport = { stats: checked, recentQueries: [...(recent as string[])] };
  if (raw.lastUsedDay !== undefined) {
    if (typeof raw.lastUsedDay !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(raw.lastUsedDay))
      throw new InvalidInputError(
        `usage.lastUsedDay must be a date like 2026-11-27, got ${JSON.stringify(raw.lastUsedDay)}.`,
      );
    result.lastUsedDay = raw.lastUsedDay;
  }
  return result;
}
