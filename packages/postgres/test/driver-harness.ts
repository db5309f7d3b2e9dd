import type {
  EmbeddingProvider,
  EntryRecord,
  EntryUpsert,
  UsageEvent,
  WriteBatch,
} from "@memory/api";
import { resolveRetrievalSettings } from "@memory/core";
import { PostgresDriver } from "../src/postgres-driver.js";
import { TEST_URL } from "./helpers.js";

/**
 * The PostgreSQL driver opened on its own, without the facade: driver-level tests speak the
 * driver contract (`@memory/api` MemoryDriver) directly.
 */
export async function openDriver(
  schema: string,
  embedder?: EmbeddingProvider,
): Promise<PostgresDriver> {
  const driver = new PostgresDriver({ connectionString: TEST_URL, schema, maxConnections: 4 });
  await driver.open({
    embedder,
    settings: resolveRetrievalSettings(),
    now: () => Date.UTC(2026, 0, 1),
    logger: () => {},
  });
  return driver;
}

/** An entry record of `namespace` (default "default"), written at `at` (default 2025-01-01). */
export function entryRecord(
  key: string,
  content: string,
  fields: Partial<EntryRecord> & { at?: string } = {},
): EntryRecord {
  const { at = "2025-01-01T00:00:00.000Z", ...rest } = fields;
  return {
    id: `id-${rest.namespace ?? "default"}-${key}`,
    key,
    content,
    category: "core",
    namespace: "default",
    createdAt: at,
    updatedAt: at,
    ...rest,
  };
}

/** A batch of these parts, the rest empty. */
export function batch(parts: Partial<WriteBatch>): WriteBatch {
  return { upserts: [], supersessions: [], deletes: [], ...parts };
}

/** Upserts of these records, with their vectors when an embedder is given. */
export async function upserts(
  records: readonly EntryRecord[],
  embedder?: EmbeddingProvider,
): Promise<EntryUpsert[]> {
  return Promise.all(
    records.map(async (entry) =>
      embedder
        ? { entry, vector: await embedder.embedOne(entry.content, { purpose: "document" }) }
        : { entry },
    ),
  );
}

export { recallFilter } from "@memory/testkit";

/** A usage event; `at` defaults to 2026-01-01. */
export function usageEvent(
  recallId: string,
  key: string,
  fields: Partial<UsageEvent> = {},
): UsageEvent {
  return {
    recallId,
    namespace: "default",
    key,
    kind: "surfaced",
    at: "2026-01-01T00:00:00.000Z",
    source: "recall",
    ...fields,
  };
}
