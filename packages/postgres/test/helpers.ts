import { randomBytes } from "node:crypto";
import pg from "pg";

export const TEST_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";

/** Hands out unique schema names and drops them all at the end of the file. */
export function schemaRegistry(prefix: string) {
  const created: string[] = [];
  return {
    next(): string {
      const name = `t_${prefix}_${randomBytes(5).toString("hex")}`;
      created.push(name);
      return name;
    },
    async dropAll(): Promise<void> {
      const client = new pg.Client({ connectionString: TEST_URL });
      await client.connect();
      try {
        for (const name of created.splice(0))
          await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs one statement on a fresh connection (administration in tests). */
export async function admin<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: TEST_URL });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}
