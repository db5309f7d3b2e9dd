import type pg from "pg";

/** One numbered schema change. Both steps receive the quoted schema name. */
export interface Migration {
  version: number;
  name: string;
  /** SQL run first. */
  up: (schema: string) => string;
  /** Then work in JavaScript, in the same transaction (e.g. computing search terms). */
  run?: (client: pg.PoolClient, schema: string) => Promise<void>;
}
