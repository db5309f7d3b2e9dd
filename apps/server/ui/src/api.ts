/** The server's /v1 API, called with the token kept in sessionStorage (none in loopback dev mode). */

import type { z } from "zod";
import type { MemoryEntrySchema, RecallExplainSchema } from "../../src/wire/entry.js";
import type { RelationsResponseSchema } from "../../src/wire/relations.js";
import type {
  ChainResponseSchema,
  HistoryResponseSchema,
  NamespacesResponseSchema,
} from "../../src/wire/responses.js";
import type { RecallTraceSchema } from "../../src/wire/trace.js";

const TOKEN_KEY = "memory.token";

/**
 * The wire shapes, inferred from the server's schema (src/wire/): one definition for the routes,
 * the OpenAPI document, the MCP tools and this inspector. Type-only: no zod in the bundle.
 */
export type Entry = z.output<typeof MemoryEntrySchema>;
export type Explain = z.output<typeof RecallExplainSchema>;
export type NamespaceSummary = z.output<typeof NamespacesResponseSchema>["namespaces"][number];
export type ChainResponse = z.output<typeof ChainResponseSchema>;
export type HistoryResponse = z.output<typeof HistoryResponseSchema>;
export type RecallTrace = z.output<typeof RecallTraceSchema>;
export type RelationsResponse = z.output<typeof RelationsResponseSchema>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function getToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string | null): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = getToken();
  return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
}

async function fail(response: Response): Promise<never> {
  let code = "HTTP_ERROR";
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) code = body.error.code;
    if (body.error?.message) message = body.error.message;
  } catch {
    // Not JSON: the status line says enough.
  }
  throw new ApiError(response.status, code, message);
}

/** Fetches and parses JSON; `okStatuses` lists non-2xx statuses that still carry a useful body. */
export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  okStatuses: number[] = [],
): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : { "content-type": "application/json" }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok && !okStatuses.includes(response.status)) return fail(response);
  return (await response.json()) as T;
}

export function query(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") search.set(name, String(value));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

export async function exportNamespace(namespace: string): Promise<Blob> {
  const response = await fetch(`/v1/export${query({ namespace })}`, { headers: headers() });
  if (!response.ok) return fail(response);
  return response.blob();
}

export async function importNdjson(
  text: string,
): Promise<{ imported: number; rejected: { index: number; message: string }[] }> {
  const response = await fetch("/v1/import", {
    method: "POST",
    headers: headers({ "content-type": "application/x-ndjson" }),
    body: text,
  });
  if (!response.ok) return fail(response);
  return response.json();
}
