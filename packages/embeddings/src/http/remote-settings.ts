import { ConfigError } from "@memory/api";

/** Settings shared by every provider that calls a remote HTTP API. */
export interface RemoteSettings {
  /** API key. Read at request time; falls back to the provider's environment variable. */
  apiKey?: string;
  /** Base URL of the API, for proxies and compatible servers. */
  baseURL?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Custom `fetch` (tests, proxies, instrumentation). Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Time limit for one HTTP request, including reading its body. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx or a network error. Default 2. */
  maxRetries?: number;
  /** Delay before the first retry, doubled on each further one. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Upper bound of one retry wait, including `Retry-After`. Default 20 000 ms. */
  retryMaxDelayMs?: number;
  /**
   * Waits `ms` before a retry; must reject with `signal.reason` when the signal aborts.
   * Default: a real timer. Tests inject one to check the chosen delays without waiting.
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Texts sent in one request; capped at the provider's own limit. */
  maxBatchSize?: number;
  /** Requests in flight at once for one `embed()` call. Default 4. */
  concurrency?: number;
}

export const REMOTE_DEFAULTS = {
  timeoutMs: 30_000,
  maxRetries: 2,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 20_000,
  concurrency: 4,
} as const;

/** What error messages need to know to tell the user what to fix. */
export interface ProviderIdentity {
  /** Display name used in messages (`OpenAI`, `OpenRouter`, `Gemini`...). */
  label: string;
  /** Environment variable holding the key, named in messages. */
  apiKeyEnv: string;
}

/**
 * Reads the API key when a request is about to be made, never at import or construction time,
 * so a key set after start-up (or rotated) is picked up and a missing key only matters to
 * callers who actually embed.
 */
export function resolveApiKey(
  settings: RemoteSettings,
  identity: ProviderIdentity,
  options: { required: boolean; fallbackEnv?: readonly string[] } = { required: true },
): string | undefined {
  if (settings.apiKey !== undefined && settings.apiKey !== "") return settings.apiKey;
  for (const name of [identity.apiKeyEnv, ...(options.fallbackEnv ?? [])]) {
    const value = process.env[name];
    if (value !== undefined && value !== "") return value;
  }
  if (!options.required) return undefined;
  throw new ConfigError(
    `${identity.label} needs an API key: pass the apiKey option or set the ${identity.apiKeyEnv} environment variable.`,
    { details: { provider: identity.label, env: identity.apiKeyEnv } },
  );
}

/** Reads a positive integer setting, rejecting nonsense early with the option's name. */
export function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || (value === 0 && name !== "maxRetries")) {
    throw new ConfigError(`${name} must be a positive integer, got ${String(value)}.`, {
      details: { option: name },
    });
  }
  return value;
}
