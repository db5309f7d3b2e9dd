import { MAX_NAMESPACE_LENGTH, MAX_SESSION_ID_LENGTH } from "@memory/api";
import { TOOL_INPUT_BOUNDS } from "@memory/tools";
import { z } from "zod";

/**
 * The wire schema of the HTTP API, defined once (src/wire/*): routes validate with it,
 * `/openapi.json` is generated from it, the MCP tools take their fields from it (with
 * @memory/tools' words) and the web inspector's types are inferred from it. Every schema
 * registered here becomes `#/components/schemas/<id>`. Hard rules on keys, contents and
 * categories (length, NUL, pattern) stay in the backend, which reports them as INVALID_INPUT;
 * these schemas check shapes and types.
 */
export const schemaRegistry = z.registry<{ id: string }>();

export function named<T extends z.ZodType>(id: string, schema: T): T {
  schemaRegistry.add(schema, { id });
  return schema;
}

/**
 * Bounds of the HTTP schemas: the tools' (@memory/tools, whose input fields the MCP tools use),
 * so every channel accepts the same values, and those of the memory-file reads.
 */
export const INPUT_BOUNDS = {
  ...TOOL_INPUT_BOUNDS,
  /** A memory file's path (`GET /v1/files`, `memory_get` with a path). */
  filePath: 4096,
  /** Lines of a memory file read at once. */
  fileLines: 2000,
} as const;

export const namespace = z
  .string()
  .min(1)
  .max(MAX_NAMESPACE_LENGTH)
  .describe(
    'Namespace: any text of 1-256 characters without control characters, compared exactly; defaults to "default" (or the token\'s first namespace).',
  );
export const category = z
  .string()
  .min(1)
  .max(INPUT_BOUNDS.category)
  .describe(
    '"core" (long-term facts), "daily" (session logs), "conversation" (turns) or a custom name.',
  );
export const timestamp = z
  .string()
  .describe(
    "RFC 3339 with an upper-case T and an offset (2026-01-31T12:00:00Z, 2026-01-31T14:00:00+02:00) or a date alone (2026-01-31); returned as UTC YYYY-MM-DDTHH:mm:ss.sssZ.",
  );
export const sessionId = z.string().min(1).max(MAX_SESSION_ID_LENGTH);
