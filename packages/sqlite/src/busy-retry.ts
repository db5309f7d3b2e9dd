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
