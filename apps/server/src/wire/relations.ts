import { z } from "zod";
import { named, namespace, timestamp } from "./fields.js";

// Shapes only: the library checks types, weights, metadata size and keys and answers with a
// typed error (400 INVALID_INPUT, 404 NOT_FOUND) that says what to do.
const relationType = z
  .string()
  .describe(
    "semantic, supports, contradicts, causes, follows, mentions, derived_from, or a custom name (letters, digits, - and _; at most 64).",
  );
const weight = z.number().describe("How strong, from 0 to 1; relating again keeps the stronger.");
const metadata = z
  .record(z.string(), z.unknown())
  .describe("A JSON object kept with the edge (at most 16 KiB as JSON).");

export const EntryRelationSchema = named(
  "EntryRelation",
  z
    .object({
      to: z.string(),
      type: relationType,
      weight: weight.optional(),
      metadata: metadata.optional(),
      createdAt: timestamp.optional(),
      updatedAt: timestamp.optional(),
    })
    .describe("An outgoing relation as an exported entry carries it (export format 2)."),
);

export const RelationSchema = named(
  "Relation",
  z
    .object({
      namespace: z.string(),
      from: z.string(),
      to: z.string(),
      type: relationType,
      weight,
      metadata: metadata.optional(),
      createdAt: timestamp,
      updatedAt: timestamp,
    })
    .describe("A typed, weighted, directed edge between two entries of one namespace."),
);

export const RelateRequestSchema = named(
  "RelateRequest",
  z
    .object({
      from: z.string().describe("The source entry's key (must exist)."),
      to: z.string().describe("The target entry's key (must exist, same namespace)."),
      type: relationType,
      weight: weight.optional().describe("Default 1."),
      metadata: metadata.optional(),
      namespace: namespace.optional(),
    })
    .strict(),
);

export const UnrelateQuery = z
  .object({
    from: z.string().min(1),
    to: z.string().min(1),
    type: relationType.optional().describe("Omitted: every type."),
    namespace: namespace.optional(),
  })
  .strict();

const directionField = z
  .enum(["out", "in", "both"])
  .optional()
  .describe("out: edges from the key; in: edges to it; both (default).");
const limitField = z.coerce.number().int().min(0).max(1000).optional().describe("Default 100.");

export const RelationsQuery = z
  .object({
    namespace: namespace.optional(),
    direction: directionField,
    types: z
      .string()
      .min(1)
      .transform((value) => value.split(",").filter((name) => name !== ""))
      .optional()
      .describe("Comma-separated relation types, e.g. causes,supports."),
    limit: limitField,
  })
  .strict();

export const RelationsRequestSchema = named(
  "RelationsRequest",
  z
    .object({
      key: z.string().min(1).describe("The entry's key, exactly as stored."),
      namespace: namespace.optional(),
      direction: directionField,
      types: z.array(relationType).optional(),
      limit: z.number().int().min(0).max(1000).optional().describe("Default 100."),
    })
    .strict(),
);

export const RelationResponseSchema = named(
  "RelationResponse",
  z.object({ relation: RelationSchema }),
);
export const UnrelateResponseSchema = named(
  "UnrelateResponse",
  z.object({ removed: z.number().int().describe("How many edges went (0 is not an error).") }),
);
export const RelationsResponseSchema = named(
  "RelationsResponse",
  z.object({
    key: z.string(),
    namespace: z.string(),
    relations: z.array(RelationSchema).describe("Strongest first, then newest."),
  }),
);
