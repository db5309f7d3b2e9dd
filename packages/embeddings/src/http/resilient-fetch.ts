import { MemoryError, MemoryTimeoutError } from "@memory/api";
import { type CallKind, errorForStatus, networkError } from "./http-errors.js";
import { type ProviderIdentity, REMOTE_DEFAULTS, type RemoteSettings } from "./remote-settings.js";
import { parseRetryAfter, retryDelay, sleep } from "./retry-delay.js";

export interface ResilientFetchOptions {
  settings: RemoteSettings;
  identity: ProviderIdentity;
  kind: CallKind;
  /** The caller's signal; aborting it cancels the request and any retry wait. */
  signal?: AbortSignal | undefined;
}

/**
 * A `fetch` handed to the vendor SDKs (all three accept one), with their own retries turned
 * off. Doing retries, timeouts and error mapping here, below the SDK, gives every provider the
 * same behaviour and lets us read `Retry-After`, which not every SDK exposes.
 *
 * SDKs wrap errors thrown by `fetch` in their own types, so the typed error is also kept in
 * `failure` for the provider to rethrow unchanged.
 */
export class ResilientFetch {
  failure: MemoryError | undefined;
  readonly fetch: typeof fetch;

  constructor(private readonly options: ResilientFetchOptions) {
    this.fetch = (input, init) => this.run(input, init);
  }

  private async run(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    try {
      return await this.attempts(input, init);
    } catch (error) {
      if (MemoryError.isInstance(error)) this.failure = error;
      throw error;
    }
  }

  private async attempts(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const { settings, identity, kind, signal } = this.options;
    const baseFetch = settings.fetch ?? globalThis.fetch;
    const maxRetries = settings.maxRetries ?? REMOTE_DEFAULTS.maxRetries;
    const timeoutMs = settings.timeoutMs ?? REMOTE_DEFAULTS.timeoutMs;
    const delays = {
      baseDelayMs: settings.retryBaseDelayMs ?? REMOTE_DEFAULTS.retryBaseDelayMs,
      maxDelayMs: settings.retryMaxDelayMs ?? REMOTE_DEFAULTS.retryMaxDelayMs,
    };
    const url = requestUrl(input);
    const wait = settings.sleep ?? sleep;

    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
      let response: Response;
      let body: ArrayBuffer;
      try {
        response = await baseFetch(input, { ...init, signal: combined });
        // The body is read under the same timer: a server that sends headers and then stalls
        // must time out too, and SDKs would otherwise read it with no limit at all.
        body = await response.arrayBuffer();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (timeout.signal.aborted) {
          throw new MemoryTimeoutError(
            `${identity.label} did not answer within ${timeoutMs} ms (${url}): raise the timeoutMs option or check the server.`,
            { cause: error, details: { provider: identity.label, timeoutMs } },
          );
        }
        if (attempt < maxRetries) {
          await wait(retryDelay(attempt, undefined, delays), signal);
          continue;
        }
        throw networkError(identity, kind, url, error);
      } finally {
        clearTimeout(timer);
      }

      if (response.ok) return rebuild(response, body);
      const retryable = response.status === 429 || response.status >= 500;
      if (retryable && attempt < maxRetries) {
        const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
        await wait(retryDelay(attempt, retryAfter, delays), signal);
        continue;
      }
      throw errorForStatus(response.status, new TextDecoder().decode(body), identity, kind, url);
    }
  }
}

function requestUrl(input: string | URL | Request): string {
  const raw = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  // Some APIs (Gemini) carry the key in the query string; never let it reach a message.
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
  if (parsed === undefined) return raw;
  parsed.search = "";
  return parsed.href;
}

function rebuild(response: Response, body: ArrayBuffer): Response {
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
