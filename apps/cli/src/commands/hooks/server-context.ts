import type { MemoryConfig } from "@memory/api";
import { resolveHttpEndpoint } from "../mcp/server-endpoint.js";

/**
 * Asks a running `memory serve` for the prompt's context (`POST /v1/context`). The server has
 * the embedding model loaded already, so the hook gets hybrid recall without paying for the
 * model. Returns undefined when the server cannot answer (not running, refused, an error), so
 * the caller falls back to its own keyword-only recall; the signal bounds the wait.
 */
export async function contextFromServer(
  config: MemoryConfig,
  file: string | undefined,
  message: string,
  namespace: string | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  let endpoint: ReturnType<typeof resolveHttpEndpoint>["endpoint"];
  try {
    endpoint = resolveHttpEndpoint(config, file, { http: true, showToken: true }).endpoint;
  } catch {
    // No token configured: the server can only be an unauthenticated loopback one.
    endpoint = resolveHttpEndpoint(config, file, { http: true }).endpoint;
  }
  const url = new URL("/v1/context", endpoint.url);
  const token = endpoint.token?.kind === "literal" ? endpoint.token.value : undefined;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ message, ...(namespace === undefined ? {} : { namespace }) }),
      signal,
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { context?: unknown };
    return typeof body.context === "string" ? body.context : undefined;
  } catch {
    return undefined;
  }
}
