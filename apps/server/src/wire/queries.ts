import { z } from "zod";
import { INPUT_BOUNDS, namespace, sessionId, timestamp } from "./fields.js";

/** Path parameters and query strings (text on the wire, coerced here). */
const booleanQuery = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");
const integerQuery = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const categoriesQuery = z
  .string()
  .min(1)
  .transform((value) => value.split(",").filter((name) => name !== ""))
  .describe("Comma-separated categories, e.g. core,daily.");

export const KeyParams = z.object({
  key: z
    .string()
    .min(1)
    .describe(
      'The entry\'s key (URL-encoded). Keys made of dot segments (".", "..", "./..") or holding "/" do not survive URL normalization: use POST /v1/memories/get and /v1/memories/forget for those.',
    ),
});
export const NamespaceParams = z.object({ namespace: z.string().min(1) });
export const SessionParams = z.object({ sessionId: z.string().min(1) });

export const NamespaceQuery = z.object({ namespace: namespace.optional() }).strict();
/** `GET /v1/files`: lines of a memory file (Markdown backend). */
export const FileQuery = z
  .object({
    path: z
      .string()
      .min(1)
      .max(INPUT_BOUNDS.filePath)
      .describe("A memory file, relative to the tree: MEMORY.md, memory/2026-11-24.md."),
    from: z.coerce.number().int().min(1).optional().describe("First line (1-based); default 1."),
    lines: z.coerce
      .number()
      .int()
      .min(1)
      .max(INPUT_BOUNDS.fileLines)
      .optional()
      .describe("How many lines; default (and at most) 2000."),
  })
  .strict();
export const GetQuery = z
  .object({ namespace: namespace.optional(), withEmbedding: booleanQuery.optional() })
  .strict();
const filterQueryShape = {
  namespace: namespace.optional(),
  sessionId: sessionId.optional(),
  categories: categoriesQuery.optional(),
  since: timestamp.optional(),
  until: timestamp.optional(),
  includeSuperseded: booleanQuery.optional(),
};
export const CountQuery = z.object(filterQueryShape).strict();
export const ListQuery = z
  .object({
    ...filterQueryShape,
    limit: integerQuery(0, INPUT_BOUNDS.listLimit).optional().describe("Default 100."),
    offset: integerQuery(0, Number.MAX_SAFE_INTEGER).optional(),
    withEmbeddings: booleanQuery.optional(),
  })
  .strict();
export const ExportQuery = z
  .object({
    ...filterQueryShape,
    namespace: namespace.optional().describe("Omitted: every namespace the token may use."),
    withEmbeddings: booleanQuery.optional(),
  })
  .strict();
export const PurgeSessionQuery = z
  .object({
    namespace: namespace.optional().describe("Omitted: every namespace the token may use."),
  })
  .strict();
export const TopCoreQuery = z
  .object({
    namespace: namespace.optional(),
    limit: integerQuery(0, 1000).optional().describe("Default 10."),
  })
  .strict();
