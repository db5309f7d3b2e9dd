import { MemoryError } from "@memory/api";
import { type CallKind, malformedResponse } from "./http-errors.js";
import type { ProviderIdentity, RemoteSettings } from "./remote-settings.js";
import { ResilientFetch } from "./resilient-fetch.js";

/**
 * Runs one SDK request through a fresh {@link ResilientFetch} and turns whatever the SDK throws
 * back into our typed errors: the SDKs wrap failures of `fetch` in their own error classes, and
 * report unparsable bodies as bare `SyntaxError`s.
 */
export async function callThroughSdk<T>(
  context: { settings: RemoteSettings; identity: ProviderIdentity; kind: CallKind },
  signal: AbortSignal | undefined,
  request: (fetch: typeof globalThis.fetch) => Promise<T>,
): Promise<T> {
  const resilient = new ResilientFetch({ ...context, signal });
  try {
    return await request(resilient.fetch);
  } catch (error) {
    if (resilient.failure !== undefined) throw resilient.failure;
    if (signal?.aborted) throw signal.reason;
    if (MemoryError.isInstance(error)) throw error;
    throw malformedResponse(context.identity, context.kind, describe(error), error);
  }
}

function describe(error: unknown): string {
  if (error instanceof SyntaxError) return `the body is not valid JSON (${error.message})`;
  return error instanceof Error ? error.message : String(error);
}
