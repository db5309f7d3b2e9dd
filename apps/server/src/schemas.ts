import { MAX_NAMESPACE_LENGTH, MAX_SESSION_ID_LENGTH } from "@memory/api";
import { FACT_KINDS } from "@memory/lifecycle";
import { TOOL_INPUT_BOUNDS } from "@memory/tools";
import { z } from "zod";

/**
 * Request and response schemas, defined once: routes validate with them and `/openapi.json` is
 * generated from them. Every schema registered here becomes `#/components/schemas/<id>`.
 * Hard rules on keys, contents and categories (length, NUL, pattern) stay in the backend, which
 * reports them as INVALID_INPUT; these schemas check shapes and types.
 */
export const schemaRegistry = z.registry<{ id: string }>();

function named<T extends z.ZodType>(id: string, schema: T): T {
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

const namespace = z
  .string()
  .min(1)
  .max(MAX_NAMESPACE_LENGTH)
  .describe(
    'Namespace: any text of 1-256 characters without control characters, compared exactly; defaults to "default" (or the token\'s first namespace).',
  );
const category = z
  .string()
  .min(1)
  .max(INPUT_BOUNDS.category)
  .describe(
    '"core" (long-term facts), "daily" (session logs), "conversation" (turns) or a custom name.',
  );
const timestamp = z
  .string()
  .describe(
    "RFC 3339 with an upper-case T and an offset (2026-01-31T12:00:00Z, 2026-01-31T14:00:00+02:00) or a date alone (2026-01-31); returned as UTC YYYY-MM-DDTHH:mm:ss.sssZ.",
  );
const sessionId = z.string().min(1).max(MAX_SESSION_ID_LENGTH);

export const RecallExplainSchema = named(
  "RecallExplain",
  z
    .object({
      mode: z.enum(["hybrid", "bm25", "embedding"]),
      source: z.enum(["keyword", "vector", "hybrid", "like", "recent", "external"]),
      strategy: z.enum(["rrf", "weighted"]).optional(),
      keywordRank: z.number().optional(),
      keywordScore: z.number().optional().describe("Raw BM25 with the namespace's statistics."),
      keywordRelevance: z.number().optional().describe("Keyword part of relevance, 0..1."),
      vectorRank: z.number().optional(),
      cosine: z.number().optional(),
      vectorRelevance: z.number().optional().describe("Vector part of relevance, 0..1."),
      rrf: z.number().optional().describe("Rank-fusion value that ordered the result (rrf only)."),
      fused: z.number().describe("Relevance before decay, 0..1."),
      decay: z.number(),
      importance: z.number().optional(),
      earlyReturn: z.boolean().optional(),
      degraded: z.string().optional(),
    })
    .describe("The parts of a recall score."),
);

export const ConflictDecisionSchema = named(
  "ConflictDecision",
  z
    .object({
      mode: z.enum(["jaccard", "combined"]),
      threshold: z.number(),
      superseded: z.array(z.string()).describe("Keys of the older entries it superseded."),
      candidates: z.array(
        z.object({
          key: z.string(),
          jaccard: z.number(),
          cosine: z.number().optional(),
          bm25: z.number(),
          similarity: z.number(),
          signals: z.object({
            negationReversal: z.number(),
            preferenceChange: z.number(),
            temporalShift: z.number(),
            total: z.number(),
          }),
          score: z.number(),
          differentSubject: z.string().optional(),
          superseded: z.boolean(),
        }),
      ),
    })
    .describe(
      "A conflict check: the older entries looked at, their scores, and which were superseded.",
    ),
);

export const MemoryEntrySchema = named(
  "MemoryEntry",
  z.object({
    id: z.string(),
    key: z.string(),
    content: z.string(),
    category,
    namespace: z.string(),
    sessionId: z.string().optional(),
    importance: z.number().min(0).max(1).optional(),
    supersededBy: z.string().optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
    score: z.number().optional().describe("Recall only."),
    explain: RecallExplainSchema.optional().describe("Recall only."),
    embedding: z.array(z.number()).optional().describe("Only when asked for."),
    source: z
      .object({ path: z.string(), startLine: z.number().int(), endLine: z.number().int() })
      .optional()
      .describe("Recall only, Markdown backend: the file and lines the result comes from."),
    conflict: ConflictDecisionSchema.optional().describe(
      "Store only, with conflict_mode on: the conflict check of the stored entry.",
    ),
  }),
);

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

// ---------------------------------------------------------------- query helpers
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

// ---------------------------------------------------------------- bodies
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
      withEmbeddings: z.boolean().optional(),
    })
    .strict(),
);

export const SupersedeRequestSchema = named(
  "SupersedeRequest",
  z.object({ oldKey: z.string(), newKey: z.string(), namespace: namespace.optional() }).strict(),
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
      sessionId: sessionId.optional(),
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
        .describe("Include raw conversation turns among recalled entries; default false."),
      maxChars: z.number().int().min(50).max(100_000).optional().describe("Default 2000."),
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

// ---------------------------------------------------------------- responses
export const EntryResponseSchema = named("EntryResponse", z.object({ entry: MemoryEntrySchema }));
export const EntriesResponseSchema = named(
  "EntriesResponse",
  z.object({ entries: z.array(MemoryEntrySchema) }),
);
export const RecallResponseSchema = named(
  "RecallResponse",
  z.object({
    results: z.array(MemoryEntrySchema).describe("Best first, each with score and explain."),
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
  z.object({ superseded: z.boolean().describe("False when oldKey did not exist.") }),
);
export const ImportResponseSchema = named(
  "ImportResponse",
  z.object({
    imported: z.number().int(),
    rejected: z.array(
      z.object({
        index: z.number().int().describe("0-based position among the non-blank lines."),
        key: z.string().optional(),
        code: z.string(),
        message: z.string(),
      }),
    ),
  }),
);
export const ContextResponseSchema = named(
  "ContextResponse",
  z.object({
    context: z.string().describe('The "[Memory context]" block, or "" when nothing was found.'),
    entries: z.array(MemoryEntrySchema),
    truncated: z.boolean(),
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

export const ChainRequestSchema = named(
  "ChainRequest",
  z
    .object({
      key: z.string().min(1).describe("The entry's key, exactly as stored."),
      namespace: namespace.optional(),
    })
    .strict(),
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
