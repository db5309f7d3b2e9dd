import type { Memory } from "@memory/api";
import type { ConflictPair } from "./dataset.js";

/** What storing one pair's `new` fact did. */
export interface PairOutcome {
  pair: ConflictPair;
  /** `old` ended up superseded by `new`. */
  oldSuperseded: boolean;
  /** Other facts of the pair (`before`) that ended up superseded, by `old` or `new`: always wrong. */
  othersSuperseded: { key: string; content: string; by: string }[];
  /** The score conflict detection gave `old` when `new` was stored, when it was a candidate. */
  oldScore: number | undefined;
}

const BEFORE_KEY = (index: number) => `before-${index + 1}`;

/**
 * Stores `before` and `old`, then `new`, all as core entries in a namespace of the pair's own,
 * and reads everything back including superseded entries: the outcome is what the store holds,
 * not what the store result claims.
 */
export async function runPair(memory: Memory, pair: ConflictPair): Promise<PairOutcome> {
  const namespace = `pair:${pair.id}`;
  const contents = new Map<string, string>();
  for (const [index, content] of (pair.before ?? []).entries()) {
    contents.set(BEFORE_KEY(index), content);
    await memory.store({ key: BEFORE_KEY(index), content, category: "core", namespace });
  }
  await memory.store({ key: "old", content: pair.old, category: "core", namespace });
  const stored = await memory.store({ key: "new", content: pair.new, category: "core", namespace });
  const entries = await memory.list({ namespace, includeSuperseded: true, limit: 1000 });
  const old = entries.find((entry) => entry.key === "old");
  if (old === undefined)
    throw new Error(`pair ${pair.id}: the old fact is missing after the store`);
  return {
    pair,
    oldSuperseded: old.supersededBy === "new",
    othersSuperseded: entries
      .filter((entry) => entry.key.startsWith("before-") && entry.supersededBy !== undefined)
      .map((entry) => ({
        key: entry.key,
        content: contents.get(entry.key) ?? entry.content,
        by: entry.supersededBy as string,
      })),
    oldScore: stored.conflict?.candidates.find((candidate) => candidate.key === "old")?.score,
  };
}
