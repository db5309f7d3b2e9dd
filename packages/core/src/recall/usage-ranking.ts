import type { UsageRecord } from "@memory/api";
import type { ScoredCandidate } from "./recall-results.js";

/** Reads usage records of keys in one namespace, position by position. */
export type UsageAccess = (
  namespace: string,
  keys: readonly string[],
) => Promise<(UsageRecord | undefined)[]>;

/** Uses after which an entry's half-life is stretched by the whole factor. */
export const FULL_STRETCH_USES = 4;

/**
 * `usage_half_life_factor` (docs/usage.md): an entry the agent used decays more slowly, its
 * half-life multiplied by `1 + (factor - 1) x min(1, used / 4)`, so the stretch is bounded and
 * earned by repeated use. Undefined (nothing read) when the factor is 1 (off, the default).
 */
export async function halfLifeStretch(
  usage: UsageAccess | undefined,
  factor: number,
  namespace: string,
  candidates: readonly ScoredCandidate[],
): Promise<Map<string, number> | undefined> {
  if (!usage || factor <= 1 || candidates.length === 0) return undefined;
  const keys = candidates
    .filter((candidate) => candidate.entry.category !== "core")
    .map((candidate) => candidate.entry.key);
  if (keys.length === 0) return undefined;
  const records = await usage(namespace, keys);
  const stretch = new Map<string, number>();
  records.forEach((record, index) => {
    const used = record?.stats.used ?? 0;
    if (used > 0)
      stretch.set(keys[index]!, 1 + (factor - 1) * Math.min(1, used / FULL_STRETCH_USES));
  });
  return stretch.size > 0 ? stretch : undefined;
}
