import { collectionsInput } from "@memory/tools";
import { z } from "zod";
import { ConflictRecordSchema, SupersessionRecordSchema } from "./entry.js";
import { category, INPUT_BOUNDS, named, namespace, sessionId, timestamp } from "./fields.js";
import { EntryRelationSchema } from "./relations.js";
import { explainField } from "./trace.js";

/** JSON request bodies. */
/** Body form of get: any stored key, including ones a URL path cannot carry ("..", "a/b"). */
export const GetByKeyRequestSchema = named(
  "GetByKeyRequest",
  z
    .object({
      key: z.string().min(1).describe("The entry's key, exactly as stored."),
      namespace: namespace.optional(),
      withEmbedding: z.boolean().optional(),
    })
    .strict(),
);
/** Body form of a namespace purge: any namespace, including ones a URL path cannot carry (".."). */
export const PurgeNamespaceRequestSchema = named(
  "PurgeNamespaceRequest",
  z.object({ namespace: namespace.describe("The namespace, exactly as stored.") }).strict(),
);
/** Body form of forget, for the same keys. */
export const ForgetByKeyRequestSchema = named(
  "ForgetByKeyRequest",
  z
    .object({
      key: z.string().min(1).describe("The entry's key, exactly as stored."),
      namespace: namespace.optional(),
    })
    .strict(),
);
export const StoreRequestSchema = named(
  "StoreRequest",
  z
    .object({
      key: z.string().describe("Identity within the namespace; storing again updates the entry."),
      content: z.string(),
      category: category.optional().describe('Default "core".'),
      namespace: namespace.optional(),
      sessionId: sessionId.optional(),
      importance: z.number().min(0).max(1).optional(),
      embedding: z.array(z.number()).optional().describe("A precomputed embedding."),
    })
    .strict(),
);

/**
 * One NDJSON line of an import (validated line by line; not a component of the OpenAPI
 * document, whose import body is NDJSON text): fields of an exported entry that do not apply
 * (score, explain) are ignored.
 */
export const ImportEntrySchema = StoreRequestSchema.extend({
  id: z.string().optional(),
  createdAt: timestamp.optional(),
  updatedAt: timestamp.optional(),
  supersededBy: z.string().optional(),
  supersessionRecord: SupersessionRecordSchema.optional(),
  conflictRecord: ConflictRecordSchema.optional(),
  relations: z.array(EntryRelationSchema).optional(),
}).strip();

export const RecallRequestSchema = named(
  "RecallRequest",
  z
    .object({
      query: z
        .string()
        .max(INPUT_BOUNDS.query)
        .describe('What to look for; "" or "*" means the most recent entries.'),
      limit: z
        .number()
        .int()
        .min(0)
        .max(INPUT_BOUNDS.recallLimit)
        .optional()
        .describe("Default 5."),
      namespace: namespace.optional(),
      sessionId: sessionId.optional(),
      categories: z.array(category).optional(),
      since: timestamp.optional(),
      until: timestamp.optional(),
      mode: z.enum(["hybrid", "bm25", "embedding"]).optional(),
      minScore: z.number().optional(),
      includeSuperseded: z.boolean().optional(),
      includeSnoozed: z
        .boolean()
        .optional()
        .describe("Also return entries snoozed now (docs/usage.md); default false."),
      track: z
        .boolean()
        .optional()
        .describe(
          "Record the results as surfaced and answer a recallId for POST /v1/feedback; default usage_tracking (true). A recall made for a person (the inspector) says false.",
        ),
      withEmbeddings: z.boolean().optional(),
      collections: collectionsInput.describe(
        "Collections searched with memory: true or absent, every one; false, memory only; a list, those.",
      ),
      explain: explainField,
      key: z
        .string()
        .optional()
        .describe(
          'With explain "full": one key to explain (trace.focus), even when no stage found it.',
        ),
    })
    .strict(),
);

export const SupersedeRequestSchema = named(
  "SupersedeRequest",
  z
    .object({
      oldKey: z.string().describe("The key of the older entry, to hide from recall (kept)."),
      newKey: z.string().describe("The key of the entry that replaces it (must exist)."),
      namespace: namespace.optional(),
    })
    .strict(),
);
/** `POST /v1/unsupersede`: restore a superseded entry. */
export const UnsupersedeRequestSchema = named(
  "UnsupersedeRequest",
  z
    .object({
      key: z.string().min(1).describe("The superseded entry's key, exactly as stored."),
      namespace: namespace.optional(),
    })
    .strict(),
);
/** Body form of a key's history, for keys a URL path cannot carry. */
export const HistoryRequestSchema = named(
  "HistoryRequest",
  z
    .object({
      key: z.string().min(1).describe("The entry's key, exactly as stored."),
      namespace: namespace.optional(),
    })
    .strict(),
);

export const ContextRequestSchema = named(
  "ContextRequest",
  z
    .object({
      message: z
        .string()
        .max(INPUT_BOUNDS.message)
        .describe("The user message the context is for."),
      namespace: namespace.optional(),
      sessionId: sessionId
        .optional()
        .describe(
          "The current conversation: follow-ups are read with its last messages; memory is not filtered to it.",
        ),
      limit: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .describe("Recalled entries; default auto_recall_limit (5)."),
      minScore: z.number().min(0).optional().describe("Default auto_recall_min_score (0.4)."),
      coreLimit: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .describe("Top core entries added; default 3 for an empty message, else 0."),
      includeConversation: z
        .boolean()
        .optional()
        .describe(
          "Include what the user said (autosaved turns; never questions or filler); default true.",
        ),
      maxChars: z.number().int().min(50).max(100_000).optional().describe("Default 2000."),
      track: z
        .boolean()
        .optional()
        .describe(
          'Record the entries shown as surfaced and answer a recallId for POST /v1/feedback; default true (never with explain "full").',
        ),
      explain: explainField,
    })
    .strict(),
);

export const AutosaveRequestSchema = named(
  "AutosaveRequest",
  z
    .object({
      userMessage: z.string(),
      assistantReply: z.string().optional(),
      sessionId: sessionId.optional(),
      namespace: namespace.optional(),
    })
    .strict(),
);

const turnShape = {
  message: z.string().max(INPUT_BOUNDS.message).describe("The user message of the turn."),
  reply: z
    .string()
    .max(INPUT_BOUNDS.message)
    .optional()
    .describe("The assistant's reply, when there is one."),
  namespace: namespace.optional(),
  sessionId: sessionId.optional(),
};

export const ConsolidateRequestSchema = named(
  "ConsolidateRequest",
  z.object(turnShape).strict().describe("One conversation turn to consolidate (no LLM)."),
);

export const RememberRequestSchema = named(
  "RememberRequest",
  z.object(turnShape).strict().describe("One conversation turn to remember with the chat model."),
);

export const ChainRequestSchema = named(
  "ChainRequest",
  z
    .object({
      key: z.string().min(1).describe("The entry's key, exactly as stored."),
      namespace: namespace.optional(),
    })
    .strict(),
);
