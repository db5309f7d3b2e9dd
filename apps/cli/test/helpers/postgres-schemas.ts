/** The PostgreSQL the tests use, and the schemas in it (to check that `memory eval` drops its own). */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";
const postgresDist = path.resolve(
  import.meta.dirname,
  "../../../../packages/postgres/dist/index.mjs",
);

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

// The CLI does not depend on pg itself; the test borrows the copy @memory/postgres depends on.
export async function schemaNames(pattern: string): Promise<string[]> {
  if (!existsSync(postgresDist)) {
    throw new Error(
      `${postgresDist} is missing: build @memory/postgres first (\`pnpm exec turbo run build --filter @memory/postgres\`).`,
    );
  }
  const pg = createRequire(postgresDist)("pg") as { Client: new (options: object) => PgClient };
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 30_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `No PostgreSQL answers at ${POSTGRES_URL} (${(error as Error).message}): run \`bash scripts/setup-postgres.sh\` or set MEMORY_TEST_POSTGRES_URL.`,
    );
  }
  try {
    const { rows } = await client.query(
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE '${pattern}' ORDER BY 1`,
    );
    return rows.map((row) => String(row.nspname));
  } finally {
    await client.end();
  }
}
