import type { DeleteFilter, DeleteReport, Memory, MemorySettings } from "@memory/api";

/** The `[memory]` keys hygiene reads. */
export type HygieneSettings = Pick<
  MemorySettings,
  | "conversation_retention_days"
  | "daily_retention_days"
  | "conversation_retention_floor"
  | "daily_retention_floor"
> &
  Partial<Pick<MemorySettings, "usage_event_retention_days">>;

/** One line of a hygiene report. `keptByFloor` = `eligible - deleted`. */
export interface HygieneRow {
  /** Entries of the row before the run (every namespace). */
  before: number;
  /** Entries old enough to be pruned. */
  eligible: number;
  /** Entries pruned (with `dryRun`: that would be pruned). */
  deleted: number;
  /** Eligible entries kept because the category would fall below its retention floor. */
  keptByFloor: number;
}

/**
 * What one hygiene run did (or, with `dryRun`, would do): one row per pruned category
 * (`conversation`, `daily`, their old `superseded` entries) and `core` (never pruned: only
 * `before`). Numbers are over every namespace.
 */
export interface HygieneReport {
  at: string;
  dryRun: boolean;
  deleted: number;
  rows: {
    core: HygieneRow;
    conversation: HygieneRow;
    daily: HygieneRow;
    superseded: HygieneRow;
  };
  /**
   * Usage events removed past `usage_event_retention_days` / `usage_event_max` (backends with
   * usage, real runs only, absent when none; per-entry statistics stay).
   */
  usageEventsPruned?: number;
}

export interface RunHygieneOptions {
  /** The current time (default: the system clock). */
  now?: Date;
  /** Count, delete nothing, record nothing. */
  dryRun?: boolean;
  /**
   * Save `lastRunAt` and `lastReport` as job state `hygiene` (default true; never with
   * `dryRun`). The scheduler records its own runs and passes false.
   */
  record?: boolean;
}

/** The job-state name of hygiene. */
export const HYGIENE_JOB = "hygiene";
const DAY_MS = 86_400_000;
const PRUNED = ["conversation", "daily"] as const;

const row = (before: number, report?: DeleteReport, category?: string): HygieneRow => {
  const counts = category ? report?.byCategory[category] : undefined;
  const eligible = counts?.eligible ?? 0;
  const deleted = counts?.deleted ?? 0;
  return { before, eligible, deleted, keptByFloor: eligible - deleted };
};

async function countAll(memory: Memory, filter: DeleteFilter, category: string): Promise<number> {
  const report = await memory.deleteEntries({ ...filter, allNamespaces: true, dryRun: true });
  return report.byCategory[category]?.eligible ?? 0;
}

/**
 * Prunes stale entries over every namespace, on any backend (through `deleteEntries`):
 *
 * - `core` is never pruned, superseded or not; custom categories are never touched.
 * - Current `conversation` and `daily` entries whose `updatedAt` is older than
 *   `<category>_retention_days` are deleted oldest first, but the newest
 *   `<category>_retention_floor` entries of the category in each namespace always stay (the
 *   floor counts every entry of the category, superseded ones included).
 * - Superseded `conversation` and `daily` entries (a newer entry replaced them) older than
 *   their category's retention are deleted with no floor: the entry that replaced them is kept.
 *
 * - Pinned entries (`Memory.pin`) are never pruned; usage events past their retention are.
 *
 * The passes delete disjoint sets (current, then superseded) and the floor is computed before
 * anything is deleted, so a dry run reports exactly what a real run would delete.
 */
export async function runHygiene(
  memory: Memory,
  settings: HygieneSettings,
  options: RunHygieneOptions = {},
): Promise<HygieneReport> {
  const now = options.now ?? new Date();
  const dryRun = options.dryRun === true;
  const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const retention = {
    conversation: {
      olderThan: cutoff(settings.conversation_retention_days),
      floor: settings.conversation_retention_floor,
    },
    daily: {
      olderThan: cutoff(settings.daily_retention_days),
      floor: settings.daily_retention_floor,
    },
  };

  const before = {
    core: await countAll(memory, { categories: ["core"] }, "core"),
    conversation: await countAll(memory, { categories: ["conversation"] }, "conversation"),
    daily: await countAll(memory, { categories: ["daily"] }, "daily"),
    superseded:
      (await countAll(memory, { categories: ["conversation"], superseded: true }, "conversation")) +
      (await countAll(memory, { categories: ["daily"], superseded: true }, "daily")),
  };

  const rows = {
    core: row(before.core),
    conversation: row(before.conversation),
    daily: row(before.daily),
    superseded: row(before.superseded),
  };
  for (const category of PRUNED) {
    const { olderThan, floor } = retention[category];
    const report = await memory.deleteEntries({
      allNamespaces: true,
      categories: [category],
      olderThan,
      superseded: false,
      keepNewest: floor,
      keepPinned: true,
      dryRun,
    });
    rows[category] = row(before[category], report, category);
  }
  for (const category of PRUNED) {
    const report = await memory.deleteEntries({
      allNamespaces: true,
      categories: [category],
      olderThan: retention[category].olderThan,
      superseded: true,
      keepPinned: true,
      dryRun,
    });
    const part = row(0, report, category);
    rows.superseded.eligible += part.eligible;
    rows.superseded.deleted += part.deleted;
    rows.superseded.keptByFloor += part.keptByFloor;
  }

  const result: HygieneReport = {
    at: now.toISOString(),
    dryRun,
    deleted: rows.conversation.deleted + rows.daily.deleted + rows.superseded.deleted,
    rows,
  };
  // The store's own retention settings decide what goes (`pruneUsage` without options).
  if (!dryRun && memory.capabilities.usage) {
    const days = settings.usage_event_retention_days;
    const pruned = await memory.pruneUsage(days === undefined ? {} : { olderThan: cutoff(days) });
    if (pruned > 0) result.usageEventsPruned = pruned;
  }
  if (!dryRun && options.record !== false) {
    const state = (await memory.getJobState(HYGIENE_JOB)) ?? {};
    const { lastError: _lastError, ...rest } = state;
    await memory.setJobState(HYGIENE_JOB, {
      ...rest,
      lastRunAt: result.at,
      lastReport: result,
    });
  }
  return result;
}
