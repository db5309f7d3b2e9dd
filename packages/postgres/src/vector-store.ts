import { ConfigError, type EmbeddingProvider } from "@memory/api";
import type pg from "pg";
import { markVectorsChanged } from "./change-token.js";
import { lockSchema } from "./migrations/index.js";
import type { HnswOptions } from "./postgres-options.js";
import { quoteIdent } from "./sql.js";

/** What the memory knows about its vectors after init. */
export interface VectorState {
  /** `ok`: vectors usable; `disabled`: no provider; `degraded`: see `reason`. */
  status: "ok" | "disabled" | "degraded";
  reason?: string;
  /** The fingerprint recorded with the stored vectors, if any. */
  storedFingerprint?: string;
  /** Dimensions of the stored vectors' column, if the vector table exists. */
  dimensions?: number;
  /** Qualified type and operator, e.g. `"public".vector` and `OPERATOR("public".<=>)`. */
  vectorType: string;
  distance: string;
  /**
   * Why `SET hnsw.iterative_scan` failed on the search connections (pgvector older than 0.8),
   * learnt by the first vector search; shown by healthCheck.
   */
  iterativeScanError?: string;
  /** The first vector search on this state checked the setting. */
  iterativeScanChecked?: boolean;
}

// HNSW on `vector` handles at most 2000 dimensions; it also keeps rows (8 + 4 x dims bytes)
// under the page size, so STORAGE PLAIN below keeps vectors out of TOAST.
const MAX_HNSW_DIMENSIONS = 2000;

async function readMeta(client: pg.PoolClient, schema: string): Promise<Map<string, string>> {
  const result = await client.query(`SELECT key, value FROM ${schema}.memory_meta`);
  return new Map(result.rows.map((row: { key: string; value: string }) => [row.key, row.value]));
}

async function extensionSchema(client: pg.PoolClient): Promise<string | undefined> {
  const result = await client.query(
    `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
  );
  return result.rows[0]?.nspname;
}

/** Creates the pgvector extension, or says exactly what an administrator must run. */
async function createExtension(client: pg.PoolClient): Promise<string> {
  await client.query("SAVEPOINT create_vector");
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS vector");
    await client.query("RELEASE SAVEPOINT create_vector");
  } catch (error) {
    await client.query("ROLLBACK TO SAVEPOINT create_vector");
    const code = (error as { code?: string }).code;
    const database = (await client.query("SELECT current_database() AS db, current_user AS role"))
      .rows[0];
    if (code === "42501") {
      throw new ConfigError(
        `The pgvector extension is missing in database "${database.db}" and role "${database.role}" may not create it. Ask an administrator to run, as a superuser: psql -d ${database.db} -c "CREATE EXTENSION IF NOT EXISTS vector;" (or start without an embedder for keyword-only recall).`,
        {
          cause: error,
          details: { statement: "CREATE EXTENSION IF NOT EXISTS vector;", database: database.db },
        },
      );
    }
    if (code === "58P01" || code === "0A000" || code === "22023") {
      throw new ConfigError(
        `The pgvector extension is not installed on this PostgreSQL server (${(error as Error).message}). Install pgvector (https://github.com/pgvector/pgvector#installation), then run as a superuser: psql -d ${database.db} -c "CREATE EXTENSION IF NOT EXISTS vector;".`,
        {
          cause: error,
          details: { statement: "CREATE EXTENSION IF NOT EXISTS vector;", database: database.db },
        },
      );
    }
    throw error;
  }
  return (await extensionSchema(client)) ?? "public";
}

function qualified(extension: string): Pick<VectorState, "vectorType" | "distance"> {
  return {
    vectorType: `${quoteIdent(extension)}.vector`,
    distance: `OPERATOR(${quoteIdent(extension)}.<=>)`,
  };
}

/** The HNSW (cosine) index; a no-op when it exists. */
export async function createHnswIndex(
  client: pg.PoolClient,
  schema: string,
  extension: string,
  hnsw: Required<HnswOptions>,
): Promise<void> {
  await client.query(
    `CREATE INDEX IF NOT EXISTS memory_vectors_hnsw ON ${schema}.memory_vectors
       USING hnsw (embedding ${quoteIdent(extension)}.vector_cosine_ops) WITH (m = ${hnsw.m}, ef_construction = ${hnsw.efConstruction})`,
  );
}

/**
 * The GIN index of the tsvector (also made by the migrations); a no-op when it exists. Its
 * pending list is bounded as migration 10 bounds it (see 010-search-pending-list.ts).
 */
export async function createSearchIndex(client: pg.PoolClient, schema: string): Promise<void> {
  await client.query(
    `CREATE INDEX IF NOT EXISTS memories_search ON ${schema}.memories USING gin (search)
       WITH (gin_pending_list_limit = 128)`,
  );
}

/**
 * Rebuilds the GIN index if a bulk import dropped it and died. Checked first, so a normal start
 * takes no lock on the table.
 */
export async function restoreSearchIndex(client: pg.PoolClient, schema: string): Promise<void> {
  const index = await client.query("SELECT to_regclass($1) IS NULL AS missing", [
    `${schema}.memories_search`,
  ]);
  if (index.rows[0].missing) await createSearchIndex(client, schema);
}

/** The extension schema of a qualified `"schema".vector` type name. */
export function extensionOf(state: VectorState): string {
  return JSON.parse(state.vectorType.slice(0, state.vectorType.lastIndexOf(".")));
}

async function createVectorTable(
  client: pg.PoolClient,
  schema: string,
  extension: string,
  embedder: EmbeddingProvider,
  hnsw: Required<HnswOptions>,
): Promise<void> {
  const dims = embedder.dimensions;
  const ext = quoteIdent(extension);
  await client.query(`DROP TABLE IF EXISTS ${schema}.memory_vectors`);
  await client.query(
    `CREATE TABLE ${schema}.memory_vectors (
       memory_id text PRIMARY KEY REFERENCES ${schema}.memories (id) ON DELETE CASCADE ON UPDATE CASCADE,
       content_hash text NOT NULL,
       embedding ${ext}.vector(${dims}) NOT NULL
     )`,
  );
  await client.query(
    `ALTER TABLE ${schema}.memory_vectors ALTER COLUMN embedding SET STORAGE PLAIN`,
  );
  await markVectorsChanged(client, schema);
  await createHnswIndex(client, schema, extension, hnsw);
  await client.query(
    `INSERT INTO ${schema}.memory_meta (key, value) VALUES ('embedding_fingerprint', $1), ('embedding_dimensions', $2)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [embedder.fingerprint, String(dims)],
  );
}

/**
 * Reads (and on first use with a provider, creates) the vector table. The first provider fixes
 * the dimensions and records its fingerprint; a later provider with another fingerprint never
 * writes into or searches that vector space: recall degrades to keyword until `reindex`.
 * Runs under the schema's advisory lock, so replicas starting together agree.
 */
export async function openVectorStore(
  client: pg.PoolClient,
  rawSchema: string,
  schema: string,
  embedder: EmbeddingProvider | undefined,
  hnsw: Required<HnswOptions>,
): Promise<VectorState> {
  await client.query("BEGIN");
  try {
    await lockSchema(client, rawSchema);
    const meta = await readMeta(client, schema);
    const storedFingerprint = meta.get("embedding_fingerprint");
    const storedDims = meta.has("embedding_dimensions")
      ? Number(meta.get("embedding_dimensions"))
      : undefined;
    let extension = await extensionSchema(client);
    let state: VectorState;
    if (!embedder || embedder.dimensions === 0) {
      state = {
        status: "disabled",
        reason:
          "no embedding provider is configured, so recall is keyword-only (set embedding_provider to enable vectors)",
        ...qualified(extension ?? "public"),
      };
    } else if (embedder.dimensions > MAX_HNSW_DIMENSIONS) {
      throw new ConfigError(
        `The embedding provider ${embedder.fingerprint} makes ${embedder.dimensions}-dimensional vectors; pgvector's HNSW index supports at most ${MAX_HNSW_DIMENSIONS}. Choose a model (or embedding_dims) of ${MAX_HNSW_DIMENSIONS} or fewer.`,
      );
    } else if (storedFingerprint === undefined) {
      extension ??= await createExtension(client);
      await createVectorTable(client, schema, extension, embedder, hnsw);
      state = {
        status: "ok",
        storedFingerprint: embedder.fingerprint,
        dimensions: embedder.dimensions,
        ...qualified(extension),
      };
    } else if (storedFingerprint !== embedder.fingerprint) {
      state = {
        status: "degraded",
        reason: `stored vectors were made by ${storedFingerprint} but the provider is ${embedder.fingerprint}; recall is keyword-only until you run reindex (memory reindex)`,
        storedFingerprint,
        ...qualified(extension ?? "public"),
      };
    } else {
      state = { status: "ok", storedFingerprint, ...qualified(extension ?? "public") };
      // A bulk import drops the index while it loads; if that process died, rebuild it here.
      const index = await client.query("SELECT to_regclass($1) IS NULL AS missing", [
        `${schema}.memory_vectors_hnsw`,
      ]);
      if (index.rows[0].missing) await createHnswIndex(client, schema, extension ?? "public", hnsw);
    }
    if (storedDims !== undefined && state.dimensions === undefined) state.dimensions = storedDims;
    await client.query("COMMIT");
    return state;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Drops the vectors and starts a new vector space for `embedder` (used by `reindex`). */
export async function resetVectorStore(
  client: pg.PoolClient,
  rawSchema: string,
  schema: string,
  embedder: EmbeddingProvider,
  hnsw: Required<HnswOptions>,
): Promise<VectorState> {
  await client.query("BEGIN");
  try {
    await lockSchema(client, rawSchema);
    const extension = (await extensionSchema(client)) ?? (await createExtension(client));
    await createVectorTable(client, schema, extension, embedder, hnsw);
    await client.query("COMMIT");
    return {
      status: "ok",
      storedFingerprint: embedder.fingerprint,
      dimensions: embedder.dimensions,
      ...qualified(extension),
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
