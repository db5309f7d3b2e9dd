import { MAX_KEY_LENGTH, MAX_NAMESPACE_LENGTH, MAX_SESSION_ID_LENGTH } from "@memory/api";
import { z } from "zod";

// The tools' input fields, kept here once so that every channel (the MCP server, the AI SDK,
// OpenAI Agents, anyone's own loop) offers the model the same fields, words and limits. The
// bounds are the HTTP API's too (apps/server/src/schemas.ts takes them from here, and
// apps/server/test/mcp-schemas.test.ts pins the MCP tools to the HTTP bodies); the library
// checks the rest (a key's length, an empty content, a NUL) and answers INVALID_INPUT.

/** Bounds every channel applies to a tool's (or an HTTP body's) fields. */
export const TOOL_INPUT_BOUNDS = {
  /** `limit` of recall. */
  recallLimit: 1000,
  /** `limit` of list. */
  listLimit: 10_000,
  /** Recall queries. */
  query: 10_000,
  /** A user message (memory_context, a turn) and a reply. */
  message: 100_000,
  /** A category name. */
  category: 64,
} as const;

/** Results of recall when the model gives no `limit` (every channel's default). */
export const RECALL_DEFAULT_LIMIT = 5;
/** Entries of list when the model gives no `limit` (every channel's default). */
export const LIST_DEFAULT_LIMIT = 20;

export const namespaceInput = z
  .string()
  .min(1)
  .max(MAX_NAMESPACE_LENGTH)
  .optional()
  .describe(
    "Optional memory space to use. Leave it out unless you were told which namespace to use.",
  );

export const categoryInput = z
  .string()
  .min(1)
  .max(TOOL_INPUT_BOUNDS.category)
  .describe(
    '"core" for durable facts, preferences and decisions; "daily" for notes about today; "conversation" for passing details of this chat; or a custom name (letters, digits, - and _).',
  );

const sessionIdInput = z.string().min(1).max(MAX_SESSION_ID_LENGTH);

const categoriesInput = z
  .array(categoryInput)
  .optional()
  .describe('Only these categories, e.g. ["core"].');

const sessionFilterInput = sessionIdInput.optional().describe("Only memories from this session.");

/** The session field of a write (memory_store, a turn). */
export const writeSessionIdInput = sessionIdInput
  .optional()
  .describe("The current conversation/session id, if you have one.");

export const storeInput = {
  // The key's and content's lengths are the library's to check (as over HTTP).
  key: z
    .string()
    .optional()
    .describe(
      `Optional stable identifier, e.g. "user_preferred_editor" (at most ${MAX_KEY_LENGTH} characters). Reusing a key updates that memory; left out, it is derived from the content.`,
    ),
  content: z.string().describe("The memory itself, as a self-contained sentence."),
  category: categoryInput
    .optional()
    .describe(
      'Default "core". Use "core" for durable facts and preferences, "daily" for notes about today, "conversation" for passing details, or a custom name (letters, digits, - and _).',
    ),
  importance: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("0..1, how important this is; leave it out to let the server decide."),
  sessionId: writeSessionIdInput,
};

export const recallInput = {
  query: z
    .string()
    .max(TOOL_INPUT_BOUNDS.query)
    .describe("What to look for, in natural language or keywords."),
  limit: z
    .number()
    .int()
    .min(0)
    .max(TOOL_INPUT_BOUNDS.recallLimit)
    .optional()
    .describe(`How many results at most; default ${RECALL_DEFAULT_LIMIT}.`),
  categories: categoriesInput,
  sessionId: sessionFilterInput,
  minScore: z
    .number()
    .optional()
    .describe("Drop results whose relevance (0..1) is below this; default 0.3, 0 keeps all."),
  includeSnoozed: z
    .boolean()
    .optional()
    .describe("Also return memories snoozed for now (memory_snooze); default false."),
};

/** A collection's name (also the category of its entries). */
export const collectionNameInput = z
  .string()
  .regex(
    /^[A-Za-z0-9_-]{1,64}$/,
    "A collection name is 1-64 letters, digits, - or _ (e.g. notes); list the collections to see their names.",
  )
  .describe("A collection's name, as listed: 1-64 letters, digits, - or _.");

/**
 * Recall's choice of collections (folders of notes indexed beside memory). Not in `recallInput`:
 * only hosts that index collections (the MCP server) offer it.
 */
export const collectionsInput = z
  .union([z.boolean(), z.array(collectionNameInput)])
  .optional()
  .describe(
    "Which note collections to search with memory: leave it out (or true) for every collection, false for memory only, or a list of collection names for memory and those.",
  );

export const forgetInput = {
  key: z.string().min(1).describe("The exact key to delete."),
};

export const supersedeInput = {
  oldKey: z
    .string()
    .min(1)
    .describe("The exact key of the memory that is out of date (it is hidden, not deleted)."),
  newKey: z.string().min(1).describe("The exact key of the memory that replaces it."),
};

export const unsupersedeInput = {
  key: z.string().min(1).describe("The exact key of the superseded memory to bring back."),
};

export const historyInput = {
  key: z.string().min(1).describe("The exact key whose earlier versions to list."),
};

export const listInput = {
  categories: categoriesInput,
  sessionId: sessionFilterInput,
  limit: z
    .number()
    .int()
    .min(0)
    .max(TOOL_INPUT_BOUNDS.listLimit)
    .optional()
    .describe(`How many at most; default ${LIST_DEFAULT_LIMIT}.`),
  offset: z.number().int().min(0).optional().describe("Skip this many (for paging)."),
};

export const contextInput = {
  message: z
    .string()
    .max(TOOL_INPUT_BOUNDS.message)
    .describe(
      "The user's message to find memories for, verbatim; empty at the start of a conversation to get the standing core memories.",
    ),
  sessionId: sessionIdInput
    .optional()
    .describe(
      "The current conversation: the context reads follow-ups with its last messages; it does not filter memory to this session.",
    ),
};

export const relateInput = {
  from: z.string().min(1).describe("The exact key of the memory the edge starts from."),
  to: z.string().min(1).describe("The exact key of the memory it points to (same namespace)."),
  type: z
    .string()
    .min(1)
    .max(64)
    .describe(
      "semantic, supports, contradicts, causes, follows, mentions, derived_from, or a custom name (letters, digits, - and _).",
    ),
  weight: z.number().optional().describe("How strong, from 0 to 1; default 1."),
};

export const relationsInput = {
  key: z.string().min(1).describe("The exact key of the memory whose edges to list."),
  direction: z
    .enum(["out", "in", "both"])
    .optional()
    .describe("out: edges from it; in: edges to it; both (default)."),
  types: z
    .array(z.string().min(1).max(64))
    .optional()
    .describe("Only these relation types (default every type)."),
  limit: z.number().int().min(1).max(100).optional().describe("At most this many; default 20."),
};

/** `memory_entities`: how many to list. */
export const entitiesInput = {
  top: z.number().int().min(1).max(100).optional().describe("The N most mentioned; default 20."),
};

/** `memory_entity`: the name, and how many memories to show. */
export const entityInput = {
  name: z
    .string()
    .min(1)
    .max(200)
    .describe('The name as people write it, e.g. "Melanie" or "Golden Gate Bridge".'),
  limit: z.number().int().min(1).max(100).optional().describe("At most this many; default 10."),
};

/** memory_kg: an entity and an optional time (the library checks both and says what is wrong). */
export const knowledgeGraphInput = {
  entity: z
    .string()
    .min(1)
    .max(200)
    .describe('The name as it is written ("Melanie", "Acme"); "user" for the user.'),
  asOf: z
    .string()
    .optional()
    .describe("The time the facts must hold at: a date (2026-01-31) or RFC 3339; default now."),
};
