import { FACT_KINDS } from "@memory/lifecycle";
import { z } from "zod";
import { ConflictDecisionSchema, MemoryEntrySchema } from "./entry.js";
import { named } from "./fields.js";
import { ContextTraceSchema, RecallTraceSchema } from "./trace.js";

/** JSON response bodies, errors included. */
export const ErrorSchema = named(
  "Error",
  z.object({
    error: z.object({
      code: z
        .string()
        .describe(
          "INVALID_INPUT, NOT_FOUND, UNSUPPORTED, CONFLICT, BACKEND_UNAVAILABLE, STORE_NOT_WRITABLE, TIMEOUT, EMBEDDING_FAILED, CONFIG, UNAUTHORIZED, FORBIDDEN, PAYLOAD_TOO_LARGE, METHOD_NOT_ALLOWED, SHUTTING_DOWN, INTERNAL",
        ),
      message: z.string(),
    }),
  }),
);

/** The error body of the MCP transport's own refusals (406, 415, JSON-RPC parse errors). */
export const JsonRpcErrorSchema = named(
  "JsonRpcError",
  z
    .object({
      jsonrpc: z.literal("2.0"),
      id: z.union([z.string(), z.number(), z.null()]),
      error: z.object({
        code: z
          .number()
          .int()
          .describe(
            "-32700 parse error, -32600 invalid request, -32000 transport (Not Acceptable, Unsupported Media Type).",
          ),
        message: z.string(),
        data: z.unknown().optional(),
      }),
    })
    .describe("A JSON-RPC 2.0 error response."),
);

export const FileResponseSchema = named(
  "FileSegment",
  z.object({
    path: z.string(),
    namespace: z.string(),
    from: z.number().int(),
    to: z.number().int(),
    totalLines: z.number().int(),
    text: z.string(),
  }),
);
export const EntryResponseSchema = named("EntryResponse", z.object({ entry: MemoryEntrySchema }));
export const EntriesResponseSchema = named(
  "EntriesResponse",
  z.object({ entries: z.array(MemoryEntrySchema) }),
);
export const RecallResponseSchema = named(
  "RecallResponse",
  z.object({
    results: z.array(MemoryEntrySchema).describe("Best first, each with score and explain."),
    recallId: z
      .string()
      .optional()
      .describe(
        "Give it to POST /v1/feedback with the keys the agent used; absent when the recall was not tracked (track false, usage_tracking off, or a backend without usage).",
      ),
    trace: RecallTraceSchema.optional().describe('With explain "full".'),
  }),
);
export const ForgetResponseSchema = named(
  "ForgetResponse",
  z.object({ deleted: z.boolean().describe("False when the key did not exist.") }),
);
export const PurgeResponseSchema = named(
  "PurgeResponse",
  z.object({ deleted: z.number().int().describe("Entries deleted.") }),
);
export const CountResponseSchema = named("CountResponse", z.object({ count: z.number().int() }));
export const SupersedeResponseSchema = named(
  "SupersedeResponse",
  z.object({
    superseded: z
      .boolean()
      .describe("Always true: a missing oldKey or newKey is a 404 NOT_FOUND, nothing changed."),
    entry: MemoryEntrySchema.describe("The older entry, now superseded (its text is kept)."),
    replacedBy: MemoryEntrySchema.describe("The entry that replaces it."),
  }),
);
export const HistoryResponseSchema = named(
  "HistoryResponse",
  z.object({
    key: z.string(),
    namespace: z.string(),
    versions: z
      .array(MemoryEntrySchema)
      .describe(
        "Newest first: the entry itself (when it exists), then its earlier contents, kept as superseded entries under <key>::history:<n>; updatedAt is when each content was stored.",
      ),
  }),
);
const ImportRejectionSchema = z.object({
  index: z.number().int().describe("0-based position among the non-blank lines."),
  key: z.string().optional(),
  code: z.string(),
  message: z.string(),
});
export const ImportResponseSchema = named(
  "ImportResponse",
  z.object({
    imported: z.number().int(),
    rejected: z.array(ImportRejectionSchema),
    relations: z
      .object({ imported: z.number().int(), rejected: z.array(ImportRejectionSchema) })
      .optional()
      .describe(
        "The lines' outgoing relations (export format 2), when any came: those whose target is in neither the import nor the store are rejected (the entry itself is imported).",
      ),
  }),
);
export const ContextResponseSchema = named(
  "ContextResponse",
  z.object({
    context: z.string().describe('The "[Memory context]" block, or "" when nothing was found.'),
    entries: z.array(MemoryEntrySchema),
    truncated: z.boolean(),
    recallId: z
      .string()
      .optional()
      .describe(
        "Give it to POST /v1/feedback with the keys the agent used; absent when the context was not tracked.",
      ),
    trace: ContextTraceSchema.optional().describe('With explain "full".'),
  }),
);
export const AutosaveResponseSchema = named(
  "AutosaveResponse",
  z.object({
    stored: z.array(MemoryEntrySchema),
    skipped: z.array(
      z.object({ part: z.enum(["user", "assistant"]), reason: z.enum(["filtered", "empty"]) }),
    ),
  }),
);
export const ConsolidateResponseSchema = named(
  "ConsolidateResponse",
  z.object({
    daily: MemoryEntrySchema.optional().describe(
      "The daily entry of the turn (daily_<date>_<uuid>), unless the turn was skipped.",
    ),
    promoted: MemoryEntrySchema.optional().describe(
      "The user message promoted to core (key derived from its content), when it qualified.",
    ),
    importance: z.number().describe("Importance of the user message as a core entry, 0..1."),
    notPromoted: z
      .enum(["importance", "too-short", "filtered"])
      .optional()
      .describe(
        "Why the message was not promoted: importance < 0.8, < 10 characters, or filtered.",
      ),
    superseded: z
      .array(z.string())
      .describe("Keys of older core entries the promoted one superseded."),
    conflict: ConflictDecisionSchema.optional().describe(
      "The conflict check of the promoted entry.",
    ),
    skipped: z
      .enum(["empty", "filtered"])
      .optional()
      .describe("Why nothing was stored: an empty message, or one the autosave filter skips."),
  }),
);
export const RememberResponseSchema = named(
  "RememberResponse",
  z.object({
    turn: MemoryEntrySchema.nullable().describe(
      "The raw turn (conversation entry); null when the autosave filter skipped the turn.",
    ),
    facts: z
      .array(
        MemoryEntrySchema.extend({
          kind: z.enum(FACT_KINDS),
        }),
      )
      .describe("The durable facts the chat model found, stored as core entries."),
    attempts: z.number().int().describe("Chat model calls made (0 when the turn was skipped)."),
  }),
);
export const HealthResponseSchema = named(
  "HealthResponse",
  z.object({ status: z.literal("ok"), version: z.string(), uptimeSeconds: z.number() }),
);
export const ReadyResponseSchema = named(
  "ReadyResponse",
  z.object({
    status: z.enum(["ready", "not_ready"]),
    version: z.string(),
    backend: z.string(),
    reasons: z.array(z.string()).describe("Why the server is not ready (empty when ready)."),
    pendingEmbeddings: z.number().int(),
    vector: z.object({
      status: z.enum(["ok", "disabled", "degraded"]),
      providerFingerprint: z.string().optional(),
      storedFingerprint: z.string().optional(),
      reason: z.string().optional(),
    }),
  }),
);
export const JobsResponseSchema = named(
  "JobsResponse",
  z.object({
    jobs: z.array(
      z.object({
        name: z.string().describe('"hygiene" or "snapshot".'),
        lastRunAt: z
          .string()
          .nullable()
          .describe("Start of the last successful run (null: never ran on this store)."),
        nextRunAt: z
          .string()
          .nullable()
          .describe("When the job is next due; after a failure, at once (the next tick)."),
        lastError: z
          .object({ message: z.string(), at: z.string() })
          .nullable()
          .describe("The last failure, until a run succeeds."),
        lastReport: z
          .unknown()
          .describe(
            "What the last run reported: hygiene gives { deleted, rows: { core, conversation, daily, superseded: { before, eligible, deleted, keptByFloor } } }; snapshot { entries, path, bytes }.",
          ),
        runs: z.number().int().describe("Successful scheduled runs recorded in this store."),
      }),
    ),
  }),
);

// ---------------------------------------------------------------- web inspector
export const NamespacesResponseSchema = named(
  "NamespacesResponse",
  z.object({
    namespaces: z.array(
      z.object({
        namespace: z.string(),
        entries: z.number().int().describe("Entries not superseded (what list and count see)."),
        superseded: z.number().int().describe("Entries marked superseded (kept for audit)."),
        categories: z
          .record(z.string(), z.number().int())
          .describe(
            'Entries not superseded, per category. Scoped tokens get core, daily, conversation and "other" (custom categories together).',
          ),
      }),
    ),
  }),
);

export const ChainResponseSchema = named(
  "ChainResponse",
  z.object({
    entry: MemoryEntrySchema,
    replaced: z
      .array(MemoryEntrySchema)
      .describe("Entries this one superseded, directly or through others, nearest first."),
    replacedBy: z
      .array(MemoryEntrySchema)
      .describe("The entries that replaced this one, in order (follows supersededBy)."),
  }),
);
