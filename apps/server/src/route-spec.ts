import type { Memory } from "@memory/api";
import type { z } from "zod";
import type { Access } from "./access.js";
import type { Logger } from "./logger.js";
import type { OperationScope, OperationSettings } from "./operations/operation-scope.js";

export type HttpMethod = "get" | "post" | "delete";

export interface ResponseSpec {
  description: string;
  /** JSON body schema (a registered schema becomes a $ref). */
  schema?: z.ZodType;
  /** Set for non-JSON bodies (NDJSON export). */
  contentType?: string;
  /** NDJSON bodies: the schema of each line (the body itself is text). */
  lineSchema?: z.ZodType;
}

/** What the app gives every handler: the memory, the server's settings and limits. */
export interface RouteContext extends OperationSettings {
  memory: Memory;
  logger: Logger;
  maxBodyBytes: number;
  maxImportBytes: number;
  version: string;
}

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<P, Q, B> {
  params: Parsed<P>;
  query: Parsed<Q>;
  /** The parsed JSON body (routes with a `body` schema); raw bodies are read from `request`. */
  body: Parsed<B>;
  access: Access;
  request: Request;
  context: RouteContext;
}

/**
 * One route, described once: the HTTP app registers and validates it, and `/openapi.json` is
 * generated from the same object, so the document cannot drift from what is served.
 */
export interface RouteSpec<
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** OpenAPI-style path (`/v1/memories/{key}`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** No token needed (health, readiness, the OpenAPI document). */
  public?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** A body the handler streams itself, with this content type (NDJSON import). */
  rawBody?: { contentType: string; description: string };
  responses: Record<number, ResponseSpec>;
  handler(input: RouteInput<P, Q, B>): Promise<Response> | Response;
}

/** Keeps the generic parameters of one route while building a heterogeneous list. */
export function defineRoute<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): RouteSpec {
  return spec;
}

/**
 * The operation scope and settings of one request: its memory, the token's namespaces, its
 * cancellation, and memory.toml's settings.
 */
export function scopeOf(input: {
  access: Access;
  request: Request;
  context: RouteContext;
}): OperationScope & OperationSettings {
  const { context, access, request } = input;
  return {
    memory: context.memory,
    access,
    signal: request.signal,
    contextDefaults: context.contextDefaults,
    chatModel: context.chatModel,
    turnSettings: context.turnSettings,
    collections: context.collections,
  };
}

/** The error responses most routes share. */
export const errorResponses = {
  400: { description: "Invalid input (INVALID_INPUT), with the reason." },
  401: { description: "Missing or invalid bearer token (UNAUTHORIZED)." },
  403: { description: "The token may not use this namespace (FORBIDDEN)." },
};

/** `/v1/memories/{key}` -> `/v1/memories/:key`. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

export function json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
