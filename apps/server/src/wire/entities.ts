import { z } from "zod";
import { MemoryEntrySchema } from "./entry.js";
import { named, namespace } from "./fields.js";

const top = z.coerce
  .number()
  .int()
  .min(1)
  .max(1000)
  .optional()
  .describe("The N most mentioned (default 20).");
const limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(1000)
  .optional()
  .describe("At most this many entries (default 20).");

export const EntitiesQuery = z.object({ namespace: namespace.optional(), top }).strict();

export const EntityParams = z.object({
  name: z
    .string()
    .min(1)
    .describe(
      'The name as people write it (URL-encoded): "Melanie", "melanie\'s" and "MELANIE" are one entity. Names holding "/" cannot travel in the path: use POST /v1/entities/query.',
    ),
});

export const EntityQuery = z
  .object({
    namespace: namespace.optional(),
    limit,
    includeSuperseded: z
      .enum(["true", "false"])
      .transform((value) => value === "true")
      .optional()
      .describe("true: superseded entries that name it too (default false)."),
  })
  .strict();

export const EntityRequestSchema = named(
  "EntityRequest",
  z
    .object({
      name: z.string().min(1).describe("The name as people write it."),
      namespace: namespace.optional(),
      limit: z.number().int().min(1).max(1000).optional().describe("Default 20."),
      includeSuperseded: z.boolean().optional().describe("Default false."),
    })
    .strict(),
);

export const EntitySummarySchema = named(
  "EntitySummary",
  z.object({
    id: z.string().describe("The entity id: the name folded (lower case, no possessive)."),
    key: z.string().describe("The key of its entry, entity:<id>."),
    name: z.string().describe("The name as first written."),
    mentions: z.number().int().describe("Entries that name it (at most 1000 counted)."),
  }),
);

export const EntitiesResponseSchema = named(
  "EntitiesResponse",
  z.object({
    namespace: z.string(),
    entities: z.array(EntitySummarySchema).describe("Most mentioned first, then by id."),
  }),
);

export const EntityResponseSchema = named(
  "EntityResponse",
  EntitySummarySchema.extend({
    namespace: z.string(),
    entries: z.array(MemoryEntrySchema).describe("The entries that name it, newest first."),
  }),
);
