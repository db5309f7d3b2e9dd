import {
  BackendUnavailableError,
  ConfigError,
  EmbeddingError,
  type MemoryError,
} from "@memory/api";
import type { ProviderIdentity } from "./remote-settings.js";

/** Embedding calls fail with `EmbeddingError`; chat calls with config/availability errors. */
export type CallKind = "embedding" | "chat";

// Servers sometimes echo the request (and thus user text) in error bodies; keep messages short.
const BODY_SNIPPET = 300;

function snippet(body: string): string {
  const flat = body.replace(/\s+/g, " ").trim();
  return flat.length > BODY_SNIPPET ? `${flat.slice(0, BODY_SNIPPET)}...` : flat;
}

/** Maps a final (non-retried or retries exhausted) HTTP failure to a typed, actionable error. */
export function errorForStatus(
  status: number,
  body: string,
  identity: ProviderIdentity,
  kind: CallKind,
  url: string,
): MemoryError {
  const details = { provider: identity.label, status, url };
  const server = body === "" ? "" : ` Server said: ${snippet(body)}`;
  if (status === 401 || status === 403) {
    const message = `${identity.label} rejected the API key (HTTP ${status}): check the apiKey option or the ${identity.apiKeyEnv} environment variable, and that the key may use this model.${server}`;
    return kind === "embedding"
      ? new EmbeddingError(message, { details })
      : new ConfigError(message, { details });
  }
  if (status === 404) {
    const message = `${identity.label} returned HTTP 404 for ${url}: check the model name and the baseURL option.${server}`;
    return kind === "embedding"
      ? new EmbeddingError(message, { details })
      : new ConfigError(message, { details });
  }
  const hint =
    status === 429
      ? "the rate limit or quota is exhausted; lower concurrency, raise maxRetries, or check your plan."
      : status >= 500
        ? "the service is failing; retry later or raise maxRetries."
        : "the request was refused; check the model and dimensions options.";
  const message = `${identity.label} request failed with HTTP ${status}: ${hint}${server}`;
  return kind === "embedding"
    ? new EmbeddingError(message, { details })
    : new BackendUnavailableError(message, { details });
}

/** The server answered 2xx but the payload is not what the API documents. */
export function malformedResponse(
  identity: ProviderIdentity,
  kind: CallKind,
  problem: string,
  cause?: unknown,
): MemoryError {
  const message = `${identity.label} returned a malformed response: ${problem}. If baseURL points to a proxy or a compatible server, check that it speaks the ${identity.label} API.`;
  const options = { cause, details: { provider: identity.label } };
  return kind === "embedding"
    ? new EmbeddingError(message, options)
    : new BackendUnavailableError(message, options);
}

/** Network failure (DNS, refused connection, reset) after all retries. */
export function networkError(
  identity: ProviderIdentity,
  kind: CallKind,
  url: string,
  cause: unknown,
): MemoryError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const message = `Could not reach ${identity.label} at ${url} (${reason}): check the network and the baseURL option.`;
  const options = { cause, details: { provider: identity.label, url } };
  return kind === "embedding"
    ? new EmbeddingError(message, options)
    : new BackendUnavailableError(message, options);
}
