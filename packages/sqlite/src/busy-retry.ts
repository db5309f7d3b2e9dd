import { BUSY_TIMEOUT_MS } from "./open-database.js";
import type { StatementCache } from "./statement-cache.js";

/** Total time a write keeps retrying on SQLITE_BUSY after busy_timeout gave up. */
const BUSY_DEADLINE_MS = 60_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
  );
}

/**
 * Runs `body`, retrying while another process holds the database lock past busy_timeout, so
 * callers of a shared file never see SQLITE_BUSY. The wait yields to the event loop.
 */
export async function withBusyRetry<T>(body: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_DEADLINE_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await body();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(200, 5 * 2 ** attempt) * Math.random() + 1),
      );
    }
  }
}

/**
 * Runs `body` in an IMMEDIATE transaction whose BEGIN does not wait inside SQLite for the write
 * lock: busy_timeout is 0 meanwhile, so a lock another process holds fails at once with
 * SQLITE_BUSY and `withBusyRetry` waits on a timer. SQLite's own wait sleeps in the calling
 * thread, and a server worker asleep there serves no one: with two workers recording usage on
 * every recall, their cores sat idle a tenth of the time (docs/benchmarks.md). Once the lock is
 * held nothing in the transaction waits (WAL readers never block a writer), so the restored
 * timeout only matters to the statements that come after.
 */
export function immediateWithoutWaiting<T>(statements: StatementCache, body: () => T): T {
  statements.get("PRAGMA busy_timeout = 0").get();
  try {
    return statements.db.transaction(body).immediate();
  } finally {
    statements.get(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).get();
  }
}
