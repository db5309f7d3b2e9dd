import { z } from "zod";
import { MEMORY_TOOLS } from "./mcp/tools/index.js";
import type { RouteSpec } from "./route-spec.js";
import { ErrorSchema, schemaRegistry } from "./schemas.js";

type JsonObject = Record<string, unknown>;

const REF_PREFIX = "#/components/schemas/";

function strip(schema: JsonObject): JsonObject {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function schemaFor(schema: z.ZodType): JsonObject {
  const id = schemaRegistry.get(schema)?.id;
  if (id) return { $ref: `${REF_PREFIX}${id}` };
  return strip(
    z.toJSONSchema(schema, {
      io: "input",
      unrepresentable: "any",
      metadata: schemaRegistry,
    }) as JsonObject,
  );
}

const NDJSON = "application/x-ndjson";

/**
 * An NDJSON body: text whose lines each match `line`. OpenAPI 3.1 has no schema for a
 * sequence of JSON values, so the body is a string and `x-line-schema` names the line's schema.
 */
function ndjsonMedia(line: z.ZodType): JsonObject {
  const lineSchema = schemaFor(line);
  const name = typeof lineSchema.$ref === "string" ? lineSchema.$ref : "the line schema";
  return {
    schema: {
      type: "string",
      description: `Newline-delimited JSON: each line is one ${name}.`,
    },
    "x-line-schema": lineSchema,
  };
}

const errorContent = { "application/json": { schema: { $ref: `${REF_PREFIX}Error` } } };
const jsonRpcErrorContent = {
  "application/json": { schema: { $ref: `${REF_PREFIX}JsonRpcError` } },
};

function mcpPaths(): JsonObject {
  const methodNotAllowed = (method: "get" | "delete") => ({
    operationId: method === "get" ? "mcpGet" : "mcpDelete",
    summary: `${method.toUpperCase()} /mcp: not offered (stateless endpoint)`,
    tags: ["mcp"],
    responses: {
      405: {
        description:
          "METHOD_NOT_ALLOWED: this MCP endpoint is stateless; there is no SSE stream or session to GET or DELETE.",
        content: errorContent,
      },
      default: { description: "Auth errors.", content: errorContent },
    },
  });
  return {
    post: {
      operationId: "mcp",
      summary: "MCP over streamable HTTP (stateless, JSON responses)",
      description: `JSON-RPC messages of the Model Context Protocol. Tools: ${MEMORY_TOOLS.map((tool) => tool.name).join(", ")} (memory_remember only when the server has a chat model, chat_provider). Resources: memory://namespaces/{namespace}/core and memory://namespaces/{namespace}/summary for each namespace the token may use. Use an MCP client (StreamableHTTPClientTransport) rather than calling it by hand. Errors before a message reaches the MCP server use the API's Error body; the transport's own refusals use a JSON-RPC error body.`,
      tags: ["mcp"],
      requestBody: {
        required: true,
        content: { "application/json": { schema: { type: "object" } } },
      },
      responses: {
        200: {
          description:
            "The JSON-RPC response. A tool failure is a result with isError (text `CODE: message`), not an HTTP error.",
          content: { "application/json": { schema: { type: "object" } } },
        },
        202: { description: "Notification or response accepted." },
        400: {
          description:
            "The body is not valid UTF-8 (INVALID_INPUT, Error body), or not JSON or not a JSON-RPC message (JSON-RPC error -32700 or -32600).",
          content: {
            "application/json": {
              schema: {
                oneOf: [{ $ref: `${REF_PREFIX}Error` }, { $ref: `${REF_PREFIX}JsonRpcError` }],
              },
            },
          },
        },
        401: {
          description: "Missing or invalid bearer token (UNAUTHORIZED).",
          content: errorContent,
        },
        403: {
          description:
            "Unauthenticated loopback mode refuses a foreign Host or Origin (FORBIDDEN).",
          content: errorContent,
        },
        406: {
          description:
            "The Accept header does not list both application/json and text/event-stream (JSON-RPC error -32000, Not Acceptable).",
          content: jsonRpcErrorContent,
        },
        413: {
          description: "The message is larger than max_body_bytes (PAYLOAD_TOO_LARGE).",
          content: errorContent,
        },
        415: {
          description:
            "The Content-Type is not application/json (JSON-RPC error -32000, Unsupported Media Type).",
          content: jsonRpcErrorContent,
        },
        default: {
          description: "Other errors (SHUTTING_DOWN 503, INTERNAL 500).",
          content: errorContent,
        },
      },
    },
    get: methodNotAllowed("get"),
    delete: methodNotAllowed("delete"),
  };
}

function parameters(location: "path" | "query", object: z.ZodObject | undefined): JsonObject[] {
  if (!object) return [];
  return Object.entries(object.shape).map(([name, field]) => {
    const zodField = field as z.ZodType;
    const json = strip(
      z.toJSONSchema(zodField, { io: "input", unrepresentable: "any" }) as JsonObject,
    );
    const { description, ...schema } = json;
    return {
      name,
      in: location,
      required: location === "path" || !zodField.safeParse(undefined).success,
      ...(typeof description === "string" ? { description } : {}),
      schema,
    };
  });
}

function operation(route: RouteSpec): JsonObject {
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const content = response.lineSchema
      ? { [response.contentType ?? NDJSON]: ndjsonMedia(response.lineSchema) }
      : response.schema
        ? { [response.contentType ?? "application/json"]: { schema: schemaFor(response.schema) } }
        : Number(status) >= 400
          ? { "application/json": { schema: { $ref: `${REF_PREFIX}Error` } } }
          : undefined;
    responses[status] = { description: response.description, ...(content ? { content } : {}) };
  }
  if (route.body || route.rawBody) {
    responses["413"] ??= {
      description: "The body is too large (PAYLOAD_TOO_LARGE).",
      content: { "application/json": { schema: { $ref: `${REF_PREFIX}Error` } } },
    };
  }
  responses.default = {
    description: "Any other error, in the same shape (see the status mapping in the description).",
    content: { "application/json": { schema: { $ref: `${REF_PREFIX}Error` } } },
  };
  const requestBody = route.body
    ? { required: true, content: { "application/json": { schema: schemaFor(route.body) } } }
    : route.rawBody
      ? {
          required: true,
          description: route.rawBody.description,
          content: { [route.rawBody.contentType]: { schema: { type: "string" } } },
        }
      : undefined;
  const params = [...parameters("path", route.params), ...parameters("query", route.query)];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(route.public ? { security: [] } : {}),
  };
}

export interface OpenApiOptions {
  version: string;
  /** Document the /mcp endpoint. */
  mcp: boolean;
  /** Document the web inspector's files (/, /ui, /ui/*); default true. */
  ui?: boolean;
}

function uiFile(summary: string, description: string): JsonObject {
  return {
    get: {
      operationId: summary === "Web inspector page" ? "uiIndex" : "uiFile",
      summary,
      description,
      tags: ["ui"],
      security: [],
      responses: {
        200: {
          description: "The file, with its content type and a same-origin Content-Security-Policy.",
          content: { "text/html": { schema: { type: "string" } } },
        },
        404: {
          description: "No such file (NOT_FOUND); paths leaving the inspector's folder too.",
          content: { "application/json": { schema: { $ref: `${REF_PREFIX}Error` } } },
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document, assembled from the same route specs and zod schemas the server
 * validates with. JSON Schema 2020-12 (zod's default target) is OpenAPI 3.1's schema dialect.
 */
export function buildOpenApiDocument(
  routes: readonly RouteSpec[],
  options: OpenApiOptions,
): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation(route);
  }
  paths["/openapi.json"] = {
    get: {
      operationId: "openapi",
      summary: "This document",
      tags: ["health"],
      security: [],
      responses: {
        200: {
          description: "The OpenAPI 3.1 document.",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  };
  if (options.ui ?? true) {
    paths["/"] = {
      get: {
        operationId: "root",
        summary: "Redirects to the web inspector (/ui)",
        tags: ["ui"],
        security: [],
        responses: { 302: { description: "Location: /ui." } },
      },
    };
    paths["/ui"] = uiFile(
      "Web inspector page",
      "The inspector's HTML. The files need no token; the /v1 calls the page makes do.",
    );
    paths["/ui/*"] = uiFile(
      "Web inspector files",
      "Any built file of the inspector (`*` is a wildcard path, not a template): scripts and styles under /ui/assets/ with content hashes in their names, cached for a year.",
    );
  }
  if (options.mcp) paths["/mcp"] = mcpPaths();
  const components = z.toJSONSchema(schemaRegistry, {
    io: "input",
    unrepresentable: "any",
    uri: (id) => `${REF_PREFIX}${id}`,
  }).schemas as Record<string, JsonObject>;
  const schemas = Object.fromEntries(
    Object.entries(components).map(([id, schema]) => [id, strip(schema)]),
  );
  schemas.Error ??= schemaFor(ErrorSchema);
  return {
    openapi: "3.1.0",
    info: {
      title: "@memory server",
      version: options.version,
      description:
        "Long-term memory for AI agents. Every error is `{ error: { code, message } }`; statuses: INVALID_INPUT 400, UNAUTHORIZED 401, FORBIDDEN 403, NOT_FOUND 404, CONFLICT 409, PAYLOAD_TOO_LARGE 413, CONFIG 500, INTERNAL 500, UNSUPPORTED 501, EMBEDDING_FAILED 502, BACKEND_UNAVAILABLE 503, SHUTTING_DOWN 503, TIMEOUT 504, STORE_NOT_WRITABLE 507 (full disk or read-only store: reads keep working).",
    },
    // Relative to where this document is served: the server that serves it.
    servers: [{ url: "/", description: "This server (the origin /openapi.json came from)." }],
    security: [{ bearer: [] }],
    tags: [
      { name: "memories", description: "Store, read, search and delete entries." },
      {
        name: "relations",
        description: "Typed, weighted edges between entries of one namespace (docs/relations.md).",
      },
      {
        name: "entities",
        description:
          "People, places, organisations and products named in entries, read without a model (docs/entities.md).",
      },
      {
        name: "usage",
        description:
          "What recall surfaced and the agent used (feedback), usage statistics, pins and snoozes (docs/usage.md).",
      },
      { name: "purge", description: "Destructive bulk deletes." },
      { name: "transfer", description: "Streamed NDJSON export and import." },
      {
        name: "agent",
        description:
          "Agent-loop helpers: memory context, turn autosave, consolidation and remember.",
      },
      {
        name: "jobs",
        description:
          "Maintenance jobs (hygiene, snapshot, curate, transcripts) and their last runs.",
      },
      { name: "health", description: "Liveness, readiness and this document." },
      ...((options.ui ?? true)
        ? [{ name: "ui", description: "The web inspector's static files (no token needed)." }]
        : []),
      ...(options.mcp ? [{ name: "mcp", description: "Model Context Protocol endpoint." }] : []),
    ],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "A token from [server].tokens, MEMORY_SERVER_TOKEN or MEMORY_SERVER_TOKENS.",
        },
      },
      schemas,
    },
  };
}
