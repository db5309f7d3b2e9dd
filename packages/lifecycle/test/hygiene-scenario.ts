import type { ImportEntry, Memory } from "@memory/api";
import type { HygieneReport, HygieneSettings } from "../src/index.js";

/** The fake "now" of every hygiene test. */
export const NOW = new Date("2026-06-01T00:00:00.000Z");
const DAY_MS = 86_400_000;

export const SETTINGS: HygieneSettings = {
  conversation_retention_days: 30,
  daily_retention_days: 90,
  conversation_retention_floor: 2,
  daily_retention_floor: 1,
};

function entry(
  key: string,
  category: string,
  ageDays: number,
  extra: Partial<ImportEntry> = {},
): ImportEntry {
  const at = new Date(NOW.getTime() - ageDays * DAY_MS).toISOString();
  return {
    key,
    content: `content of ${key}`,
    category,
    createdAt: at,
    updatedAt: at,
    ...extra,
  };
}

/**
 * default: core x3 (400 days, one superseded), conversation c1-c5 (100, 90, 80, 10, 5 days),
 * superseded conversation cs1 (45 days) and cs2 (20 days), daily d1-d3 (100, 95, 10 days), custom
 * "project" (500 days). Namespace b: conversation b1, b2 (60, 50 days): all eligible, all kept by
 * the floor of 2.
 */
export async function seedHygieneScenario(memory: Memory): Promise<void> {
  const report = await memory.importEntries([
    entry("core1", "core", 400),
    entry("core2", "core", 400, { supersededBy: "core3" }),
    entry("core3", "core", 400),
    entry("c1", "conversation", 100),
    entry("c2", "conversation", 90),
    entry("c3", "conversation", 80),
    entry("c4", "conversation", 10),
    entry("c5", "conversation", 5),
    entry("cs1", "conversation", 45, { supersededBy: "c5" }),
    entry("cs2", "conversation", 20, { supersededBy: "c5" }),
    entry("d1", "daily", 100),
    entry("d2", "daily", 95),
    entry("d3", "daily", 10),
    entry("p1", "project", 500),
    entry("b1", "conversation", 60, { namespace: "b" }),
    entry("b2", "conversation", 50, { namespace: "b" }),
  ]);
  if (report.rejected.length > 0) throw new Error(JSON.stringify(report.rejected));
}

/** The exact report of one run over the scenario. */
export const EXPECTED_ROWS: HygieneReport["rows"] = {
  core: { before: 3, eligible: 0, deleted: 0, keptByFloor: 0 },
  // c1-c3 deleted; b1, b2 eligible but the floor (2 per namespace) keeps them.
  conversation: { before: 9, eligible: 5, deleted: 3, keptByFloor: 2 },
  // d1, d2 deleted; d3 is young (and the floor of 1).
  daily: { before: 3, eligible: 2, deleted: 2, keptByFloor: 0 },
  // cs1 (45 days > 30) deleted, no floor; cs2 is young.
  superseded: { before: 2, eligible: 1, deleted: 1, keptByFloor: 0 },
};

/** Keys left per namespace after one real run. */
export const EXPECTED_REMAINING = {
  default: ["c4", "c5", "core1", "core2", "core3", "cs2", "d3", "p1"],
  b: ["b1", "b2"],
};

export async function keysOf(memory: Memory, namespace: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of memory.export({ namespace, includeSuperseded: true })) {
    keys.push(item.key);
  }
  return keys.sort();
}
