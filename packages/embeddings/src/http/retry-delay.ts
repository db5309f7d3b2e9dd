/** Parses a `Retry-After` header (delta-seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface RetryDelayOptions {
  /** Delay before the first retry, before jitter. */
  baseDelayMs: number;
  /** Upper bound for any single wait, including a server-sent `Retry-After`. */
  maxDelayMs: number;
}

/**
 * Exponential backoff with jitter (a random wait between half and all of base * 2^attempt), so
 * that many clients throttled at the same moment do not retry in lockstep, while every retry still
 * waits long enough to give the server some room. A server's `Retry-After` wins
 * when present, because it knows when the quota resets; it is still capped so a hostile or
 * buggy header cannot stall the caller for hours.
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  options: RetryDelayOptions,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxDelayMs);
  const ceiling = Math.min(options.baseDelayMs * 2 ** attempt, options.maxDelayMs);
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

/** Waits `ms`, rejecting early with the signal's reason when the caller aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
