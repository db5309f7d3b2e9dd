import type {
  EntryRecord,
  MemoryEntry,
  UsageEvent,
  UsageRecord,
  WriteBatch,
  WriteResult,
} from "@memory/api";
import { resolveRetrievalSettings } from "@memory/core";
import { createTestEmbedder, type TestEmbedder } from "@memory/testkit";
import { SqliteDriver } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

/** A fixed clock: driver tests name every instant. */
export const NOW = Date.parse("2026-03-01T12:00:00.000Z");

/** An open SQLite driver on a fresh file (or `path`), with a 64-dimension test embedder. */
export async function openDriver(
  path = tempDbPath(),
): Promise<{ driver: SqliteDriver; embedder: TestEmbedder; path: string }> {
  const embedder = createTestEmbedder();
  const driver = new SqliteDriver({ path });
  await driver.open({
    embedder,
    settings: resolveRetrievalSettings(),
    now: () => NOW,
    logger: () => {},
  });
  return { driver, embedder, path };
}

/** A stored entry's record as a write batch wants it. */
export function entryRecord(
  key: string,
  content: string,
  extra: Partial<EntryRecord> = {},
): EntryRecord {
  return {
    id: `id-${extra.namespace ?? "default"}-${key}`,
    key,
    content,
    category: "core",
    namespace: "default",
    createdAt: "2026-02-01T00:00:00.000Z",
    updatedAt: "2026-02-01T00:00:00.000Z",
    ...extra,
  };
}

/** A batch with only the given parts (the arrays a batch always has are empty). */
export function batch(parts: Partial<WriteBatch>): WriteBatch {
  return { upserts: [], supersessions: [], deletes: [], ...parts };
}

/** Upserts entries with their test vectors, in one batch. */
export async function storeEntries(
  driver: SqliteDriver,
  embedder: TestEmbedder,
  entries: EntryRecord[],
): Promise<WriteResult> {
  const vectors = await embedder.embed(entries.map((entry) => entry.content));
  return driver.write(
    batch({ upserts: entries.map((entry, index) => ({ entry, vector: vectors[index]! })) }),
  );
}

export async function readOne(
  driver: SqliteDriver,
  key: string,
  namespace = "default",
): Promise<MemoryEntry | undefined> {
  return (await driver.read([{ namespace, key }]))[0];
}

export { recallFilter } from "@memory/testkit";

/** One usage event; `at` defaults to the fixed clock. */
export function usageEvent(
  recallId: string,
  key: string,
  kind: UsageEvent["kind"],
  extra: Partial<UsageEvent> = {},
): UsageEvent {
  return {
    recallId,
    namespace: "default",
    key,
    kind,
    at: new Date(NOW).toISOString(),
    query: "sha256:abc",
    source: "recall",
    ...extra,
  };
}

/** The facade's job in miniature: counts each kind of event into the record. */
export function countInto(
  current: UsageRecord | undefined,
  events: readonly UsageEvent[],
): UsageRecord {
  const first = events[0]!;
  const stats = {
    ...(current?.stats ?? { surfaced: 0, used: 0, ignored: 0, queries: 0, days: 0 }),
  };
  for (const event of events) {
    stats[event.kind] += 1;
    if (event.kind === "surfaced") stats.lastSurfacedAt = event.at;
    if (event.kind === "used") stats.lastUsedAt = event.at;
  }
  const queries = [...(current?.recentQueries ?? [])];
  for (const event of events)
    if (event.kind === "used" && event.query && !queries.includes(event.query))
      queries.push(event.query);
  return {
    namespace: first.namespace,
    key: first.key,
    stats: { ...stats, queries: queries.length },
    ...(stats.lastUsedAt ? { lastUsedDay: stats.lastUsedAt.slice(0, 10) } : {}),
    recentQueries: queries,
  };
}
