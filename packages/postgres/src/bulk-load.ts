import type pg from "pg";
import type { Database } from "./database.js";
import type { Tables } from "./filter-sql.js";
import { refreshAfterImport } from "./import-statistics.js";
import type { HnswOptions } from "./postgres-options.js";
import {
  createHnswIndex,
  createSearchIndex,
  extensionOf,
  type VectorState,
} from "./vector-store.js";

/**
 * A write batch at least this large inside an import shows the import is large: a handful of
 * entries keeps the indexes.
 */
export const BULK_BATCH_MIN = 1000;

/** Which of the bulk-droppable indexes an import concerns. */
interface BulkIndexes {
  /** The GIN index of `memories.search` (the entries table was empty). */
  search: boolean;
  /** The HNSW index of `memory_vectors` (the vector table was empty and vectors are written). */
  vectors: boolean;
}

export interface BulkTarget {
  db: Database;
  tables: Tables;
  /** Quoted schema name. */
  schema: string;
  hnsw: Required<HnswOptions>;
  vector(): VectorState;
}

/**
 * One import's index plan. Index maintenance costs more than the rows themselves (HNSW
 * insertion most, then the GIN index of the tsvector), so a large import into empty tables
 * drops their indexes before its first large batch and builds each once at the end: a build is
 * several times faster than as many inserts, and both builds run at once on the server. Only
 * indexes of tables that were empty qualify: nobody relies on them yet. A process that dies
 * meanwhile leaves them missing; the next open rebuilds them (`restoreSearchIndex`,
 * `openVectorStore`).
 */
export class BulkLoad {
  readonly #target: BulkTarget;
  readonly #eligible: BulkIndexes;
  #dropped: BulkIndexes | undefined;
  /** Upserts the import's batches carried (written or not: a failed batch costs a no-op). */
  #upserts = 0;

  private constructor(target: BulkTarget, eligible: BulkIndexes) {
    this.#target = target;
    this.#eligible = eligible;
  }

  static async start(target: BulkTarget): Promise<BulkLoad> {
    const vectors = target.vector().status === "ok";
    const row = (
      await target.db.query<{ memories: boolean; vectors: boolean }>(
        "importEntries",
        `SELECT NOT EXISTS (SELECT 1 FROM ${target.tables.memories}) AS memories,
                ${vectors ? `NOT EXISTS (SELECT 1 FROM ${target.tables.vectors})` : "false"} AS vectors`,
      )
    ).rows[0]!;
    return new BulkLoad(target, { search: row.memories, vectors: row.vectors });
  }

  /** Before a write batch of `size` upserts: drops the eligible indexes once the import is large. */
  async beforeBatch(size: number): Promise<void> {
    this.#upserts += size;
    const eligible = this.#eligible;
    if (this.#dropped || size < BULK_BATCH_MIN || !(eligible.search || eligible.vectors)) return;
    this.#dropped = eligible;
    const { db, schema } = this.#target;
    if (eligible.search)
      await db.query("importEntries", `DROP INDEX IF EXISTS ${schema}.memories_search`);
    if (eligible.vectors)
      await db.query("importEntries", `DROP INDEX IF EXISTS ${schema}.memory_vectors_hnsw`);
  }

  /**
   * Builds what was dropped, then leaves the search index and the planner's statistics ready
   * for the recalls that follow (`refreshAfterImport`).
   */
  async finish(): Promise<void> {
    await this.#rebuild();
    if (this.#upserts > 0) await refreshAfterImport(this.#target);
  }

  /**
   * The two builds at once on two connections; each is parallel on the server too
   * (max_parallel_maintenance_workers) when maintenance_work_mem holds the graph.
   */
  async #rebuild(): Promise<void> {
    const dropped = this.#dropped;
    if (!dropped) return;
    const { db, schema, hnsw } = this.#target;
    const build = (what: string, work: (client: pg.PoolClient) => Promise<void>) =>
      db.withClient(what, async (client) => {
        await client.query(`SET maintenance_work_mem = '${hnsw.buildMemoryMb}MB'`);
        try {
          await work(client);
        } finally {
          await client.query("RESET maintenance_work_mem");
        }
      });
    await Promise.all([
      dropped.search
        ? build("building the GIN index", (client) => createSearchIndex(client, schema))
        : undefined,
      dropped.vectors
        ? build("building the HNSW index", (client) =>
            createHnswIndex(client, schema, extensionOf(this.#target.vector()), hnsw),
          )
        : undefined,
    ]);
  }
}
