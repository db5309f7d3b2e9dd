import {
  type EntryUsage,
  InvalidInputError,
  type UsageOptions,
  type UsageRecord,
  type UsageReport,
  validateKey,
  validateLimit,
  validateNamespace,
} from "@memory/api";
import type { FacadeContext } from "../facade-context.js";
import { usageOf } from "./usage-operations.js";
import { emptyUsageRecord } from "./usage-stats.js";

const SCAN_PAGE = 500;
const LIMIT_DEFAULT = 50;
const LIMIT_MAX = 1_000;

/**
 * What makes a candidate (docs/usage.md). Pin: used at least 3 times, on at least 2 days, for at
 * least 2 queries, in at least a third of the times it was shown. Snooze: shown at least 10
 * times and used in at most 1 of 20 of them.
 */
export const CANDIDATE_RULES = {
  pin: { used: 3, days: 2, queries: 2, useRate: 1 / 3 },
  snooze: { surfaced: 10, useRate: 0.05 },
} as const;

/** `Memory.usage`: a namespace's most used entries (or the given keys), with candidates. */
export async function usageReport(
  context: FacadeContext,
  options: UsageOptions,
): Promise<UsageReport> {
  const usage = usageOf(context);
  const namespace = validateNamespace(options.namespace);
  const limit = validateLimit(options.limit, LIMIT_DEFAULT, LIMIT_MAX);
  if (options.keys !== undefined && !Array.isArray(options.keys))
    throw new InvalidInputError(
      `keys must be an array of keys, got ${JSON.stringify(options.keys)}.`,
    );
  const keys = options.keys?.map((key) => validateKey(key, "keys"));
  await context.usage?.drain();
  const records = keys
    ? (await usage.read(namespace, keys)).map(
        (record, index) => record ?? emptyUsageRecord(namespace, keys[index]!),
      )
    : await everyRecord(context, namespace);
  const described = await describe(context, namespace, records);
  const report: UsageReport = {
    namespace,
    entries: keys ? described.slice(0, limit) : [...described].sort(byUse).slice(0, limit),
  };
  if (options.candidates) {
    const now = new Date(context.options.now()).toISOString();
    report.pinCandidates = described.filter(isPinCandidate).sort(byUse).slice(0, limit);
    report.snoozeCandidates = described
      .filter((entry) => isSnoozeCandidate(entry, now))
      .sort(bySurfacedUnused)
      .slice(0, limit);
  }
  return report;
}

async function everyRecord(context: FacadeContext, namespace: string): Promise<UsageRecord[]> {
  const usage = usageOf(context);
  const records: UsageRecord[] = [];
  let after: { namespace: string; key: string } | undefined;
  for (;;) {
    const page = await usage.scan(namespace, after, SCAN_PAGE);
    records.push(...page);
    if (page.length < SCAN_PAGE) return records;
    const last = page[page.length - 1]!;
    after = { namespace: last.namespace, key: last.key };
  }
}

/** Each record with its entry's marks; records whose entry is gone are left out. */
async function describe(
  context: FacadeContext,
  namespace: string,
  records: readonly UsageRecord[],
): Promise<EntryUsage[]> {
  const entries = await context.driver.read(records.map(({ key }) => ({ namespace, key })));
  const described: EntryUsage[] = [];
  records.forEach((record, index) => {
    const entry = entries[index];
    if (!entry) return;
    const line: EntryUsage = {
      key: record.key,
      stats: record.stats,
      pinned: entry.pinned === true,
    };
    if (entry.snoozedUntil !== undefined) line.snoozedUntil = entry.snoozedUntil;
    described.push(line);
  });
  return described;
}

function isPinCandidate({ stats, pinned }: EntryUsage): boolean {
  const rule = CANDIDATE_RULES.pin;
  return (
    !pinned &&
    stats.used >= rule.used &&
    stats.days >= rule.days &&
    stats.queries >= rule.queries &&
    stats.used >= rule.useRate * stats.surfaced
  );
}

function isSnoozeCandidate({ stats, pinned, snoozedUntil }: EntryUsage, now: string): boolean {
  const rule = CANDIDATE_RULES.snooze;
  return (
    !pinned &&
    (snoozedUntil === undefined || snoozedUntil <= now) &&
    stats.surfaced >= rule.surfaced &&
    stats.used <= rule.useRate * stats.surfaced
  );
}

function byUse(a: EntryUsage, b: EntryUsage): number {
  return (
    b.stats.used - a.stats.used ||
    b.stats.surfaced - a.stats.surfaced ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

function bySurfacedUnused(a: EntryUsage, b: EntryUsage): number {
  return (
    b.stats.surfaced - b.stats.used - (a.stats.surfaced - a.stats.used) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}
