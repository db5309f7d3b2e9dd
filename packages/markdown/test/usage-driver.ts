import {
  type EntryRecord,
  type IndexDriverFactory,
  type NormalizedFilter,
  normalizeFilter,
  type UsageEvent,
  type UsageRecord,
} from "@memory/api";
import { analyzeQuery, createMemoryFacade, searchTerms } from "@memory/core";
import { SqliteDriver } from "@memory/sqlite";
import { MarkdownDriver } from "../src/index.js";
import { tempDir } from "./helpers.js";

/** The derived index as `createMarkdownMemory` opens it: SQLite over `index.db`. */
export const sqliteIndex: IndexDriverFactory = async (file) => new SqliteDriver({ path: file });

/**
 * A Markdown driver opened by the facade (which hands it its context), for driver-level tests:
 * the facade is only the opener, every call under test goes to the driver.
 */
export async function openDriver(
  options: { root?: string; index?: boolean } = {},
): Promise<{ driver: MarkdownDriver; root: string; close: () => Promise<void> }> {
  const root = options.root ?? tempDir();
  const driver = new MarkdownDriver({
    root,
    watch: false,
    ...(options.index ? { openIndex: sqliteIndex } : {}),
  });
  const memory = createMemoryFacade(driver, { logger: () => {} });
  await memory.init();
  return { driver, root, close: () => memory.close() };
}

/** A complete entry record as the facade would hand it to the driver. */
export function record(
  key: string,
  content: string,
  extra: Partial<EntryRecord> = {},
): EntryRecord {
  return {
    id: crypto.randomUUID(),
    key,
    content,
    category: "core",
    namespace: "default",
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-01T10:00:00.000Z",
    ...extra,
  };
}

/** A write batch of upserts only. */
export const upserts = (...entries: EntryRecord[]) => ({
  upserts: entries.map((entry) => ({ entry })),
  supersessions: [],
  deletes: [],
});

/** A recall filter of the default namespace, awake at `awakeAt`. */
export function awakeFilter(awakeAt?: string): NormalizedFilter & { namespace: string } {
  return { ...normalizeFilter({}), namespace: "default", ...(awakeAt ? { awakeAt } : {}) };
}

/** The keys each recall stage returns for `query` under `filter`. */
export async function stageKeys(
  driver: MarkdownDriver,
  query: string,
  filter: NormalizedFilter & { namespace: string },
  limit: number,
): Promise<{ recent: string[]; keyword: string[]; like: string[] }> {
  const stages = driver.recallStages;
  const keys = (list: { key: string }[]) => list.map((entry) => entry.key).sort();
  const keyword = await stages.keyword({
    terms: searchTerms(analyzeQuery(query)),
    filter,
    pool: limit,
  });
  return {
    recent: keys(await stages.recent(filter, limit)),
    keyword: keys(keyword.hits.map((hit) => hit.entry)),
    like: keys(await stages.like([query], filter, limit)),
  };
}

/** A `surfaced` event of a recall, at a fixed time unless given. */
export function surfaced(
  recallId: string,
  key: string,
  at = "2026-11-20T10:00:00.000Z",
  namespace = "default",
): UsageEvent {
  return { recallId, namespace, key, kind: "surfaced", at, source: "recall" };
}

/** The facade's update reduced to counting: what a lost update would show. */
export function countingUpdate(
  current: UsageRecord | undefined,
  events: readonly UsageEvent[],
): UsageRecord {
  const first = events[0] as UsageEvent;
  const stats = current?.stats ?? { surfaced: 0, used: 0, ignored: 0, queries: 0, days: 0 };
  const count = (kind: UsageEvent["kind"]) => events.filter((event) => event.kind === kind).length;
  return {
    namespace: first.namespace,
    key: first.key,
    stats: {
      ...stats,
      surfaced: stats.surfaced + count("surfaced"),
      used: stats.used + count("used"),
      ignored: stats.ignored + count("ignored"),
      lastSurfacedAt: events.at(-1)?.at,
    },
    recentQueries: current?.recentQueries ?? [],
  };
}
