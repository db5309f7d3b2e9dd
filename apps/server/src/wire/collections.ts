import { collectionNameInput } from "@memory/tools";
import { z } from "zod";
import { named, namespace } from "./fields.js";

const collectionName = collectionNameInput.describe(
  "1-64 letters, digits, - or _; also the category of the collection's entries.",
);

/** Body of `POST /v1/collections`. */
export const AddCollectionRequestSchema = named(
  "AddCollectionRequest",
  z
    .object({
      name: collectionName,
      path: z
        .string()
        .min(1)
        .max(4096)
        .describe("The folder on the server; it must lie inside one of [server].collection_roots."),
      pattern: z.string().min(1).max(1024).optional().describe('Default "**/*.md".'),
      namespace: namespace.optional(),
      context: z
        .union([z.string().max(4096), z.record(z.string(), z.string().max(4096))])
        .optional()
        .describe("A description of the collection, or one per path prefix."),
      sync: z.boolean().optional().describe("Index it now (default true)."),
    })
    .strict(),
);

/** Body of `POST /v1/collections/sync`. */
export const SyncCollectionsRequestSchema = named(
  "SyncCollectionsRequest",
  z
    .object({
      name: collectionName
        .optional()
        .describe("One collection (default: every one the token may use)."),
    })
    .strict(),
);

export const CollectionNameParamsSchema = z.object({ name: collectionName });

const CollectionSchema = named(
  "Collection",
  z.object({
    name: z.string(),
    path: z.string(),
    pattern: z.string(),
    namespace: z.string(),
    context: z.record(z.string(), z.string()).optional(),
    origin: z.enum(["config", "added"]).optional(),
  }),
);

const SyncReportSchema = named(
  "CollectionSyncReport",
  z.object({
    collection: z.string(),
    busy: z.boolean().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    notes: z.number(),
    added: z.number(),
    changed: z.number(),
    unchanged: z.number(),
    removed: z.number(),
    fragments: z.object({ written: z.number(), reusedEmbeddings: z.number(), deleted: z.number() }),
    problems: z.array(
      z.object({
        path: z.string(),
        line: z.number().optional(),
        code: z.string(),
        message: z.string(),
      }),
    ),
  }),
);

export const CollectionsResponseSchema = named(
  "CollectionsResponse",
  z.object({
    collections: z.array(CollectionSchema.extend({ notes: z.number(), fragments: z.number() })),
  }),
);

export const AddCollectionResponseSchema = named(
  "AddCollectionResponse",
  z.object({ collection: CollectionSchema, sync: SyncReportSchema.optional() }),
);

export const SyncCollectionsResponseSchema = named(
  "SyncCollectionsResponse",
  z.object({ collections: z.array(SyncReportSchema) }),
);

export const RemoveCollectionResponseSchema = named(
  "RemoveCollectionResponse",
  z.object({ collection: z.string(), deleted: z.number() }),
);
