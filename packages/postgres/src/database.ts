import type pg from "pg";
import { isConnectionError, toMemoryError } from "./postgres-errors.js";

// One listener shared by every memory on a pool: an idle client that lost its server (restart,
// pg_terminate_backend) is already dropped by pg-pool; the listener only keeps the 'error'
// event from crashing the process. Shared, so that many memories on one pool add one listener
// per client and one per pool, not one each (MaxListenersExceededWarning, a leak).
const ignoreError = () => {};
const guardedClients = new WeakSet<pg.PoolClient>();
const poolUsers = new WeakMap<pg.Pool, number>();

/**
 * The pool, with every failure turned into a typed `@memory` error and every checked-out client
 * guarded: a server that goes away between two statements would otherwise raise an uncaught
 * 'error' event. The failing statement still rejects, and pg-pool drops a client that is no
 * longer queryable when it is released, so the next call gets a fresh connection.
 */
export class Database {
  readonly pool: pg.Pool;
  readonly #efSearch: number;
  // Connections that already carry the hnsw.* session settings.
  readonly #tuned = new WeakSet<pg.PoolClient>();
  #attached = true;

  constructor(pool: pg.Pool, efSearch: number) {
    this.pool = pool;
    this.#efSearch = efSearch;
    const users = poolUsers.get(pool) ?? 0;
    if (users === 0) pool.on("error", ignoreError);
    poolUsers.set(pool, users + 1);
  }

  /** Stops listening to the pool (an injected pool outlives the memory). Idempotent. */
  detach(): void {
    if (!this.#attached) return;
    this.#attached = false;
    const users = (poolUsers.get(this.pool) ?? 1) - 1;
    if (users > 0) {
      poolUsers.set(this.pool, users);
      return;
    }
    poolUsers.delete(this.pool);
    this.pool.off("error", ignoreError);
  }

  async connect(operation: string): Promise<pg.PoolClient> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw toMemoryError(error, operation);
    }
    if (!guardedClients.has(client)) {
      client.on("error", ignoreError);
      guardedClients.add(client);
    }
    return client;
  }

  async query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    operation: string,
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<Row>> {
    try {
      return await this.pool.query<Row>(text, values);
    } catch (error) {
      throw toMemoryError(error, operation);
    }
  }

  /** Runs `work` on one client; a client whose connection failed is destroyed, not reused. */
  async withClient<T>(operation: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.connect(operation);
    let broken: Error | undefined;
    try {
      return await work(client);
    } catch (error) {
      if (isConnectionError(error)) broken = error as Error;
      throw toMemoryError(error, operation);
    } finally {
      client.release(broken);
    }
  }

  /** Runs `work` inside a transaction on one client. */
  transaction<T>(operation: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(operation, async (client) => {
      await client.query("BEGIN");
      try {
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }

  /** Like {@link withClient}, on a connection carrying the HNSW search settings. */
  withTunedClient<T>(operation: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(operation, async (client) => {
      if (!this.#tuned.has(client)) {
        await client.query(`SET hnsw.ef_search = ${this.#efSearch}`);
        // pgvector >= 0.8: keep scanning the graph until the filters leave enough rows, so a
        // namespace or time filter never makes a query return fewer results than exist.
        await client.query("SET hnsw.iterative_scan = relaxed_order").catch(() => {});
        this.#tuned.add(client);
      }
      return work(client);
    });
  }
}
