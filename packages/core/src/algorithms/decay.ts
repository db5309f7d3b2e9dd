import type { Category } from "@memory/api";

/** Default half-life of non-core memories, in days. */
export const DEFAULT_HALF_LIFE_DAYS = 7;
const MS_PER_DAY = 86_400_000;

/**
 * Time-decay factor: `2^(-ageDays / halfLifeDays)`, so exactly 0.5 at one half-life and 0.25
 * at two. Core memories are long-term facts and never decay (factor 1). Entries from the future
 * (clock skew) are not boosted: age is clamped at 0.
 */
export function decayFactor(
  category: Category,
  ageDays: number,
  halfLifeDays: number = DEFAULT_HALF_LIFE_DAYS,
): number {
  if (category === "core" || halfLifeDays <= 0 || !Number.isFinite(halfLifeDays)) return 1;
  return 2 ** (-Math.max(0, ageDays) / halfLifeDays);
}

/** Age in days between an ISO timestamp and `now` (milliseconds since the epoch). */
export function ageInDays(timestamp: string, now: number = Date.now()): number {
  const time = Date.parse(timestamp);
  if (Number.isNaN(time)) return 0;
  return (now - time) / MS_PER_DAY;
}
