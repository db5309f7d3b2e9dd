import { MAX_KEY_LENGTH, MAX_NAMESPACE_LENGTH, MAX_SESSION_ID_LENGTH } from "@memory/api";
import { z } from "zod";

// The MCP server's tool inputs, kept here once so that every channel (MCP, the AI SDK, OpenAI
// Agents, anyone's own loop) offers the model the same fields, words and limits. Lengths come
// from the contract (docs/input-rules.md); the library checks the rest and answers INVALID_INPUT.

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
  .max(64)
  .describe(
    '"core" for durable facts, preferences and decisions; "daily" for notes about today; "conversation" for passing details of this chat; or a custom name (letters, digits, - and _).',
  );

export const storeInput = {
  key: z
    .string()
    .min(1)
    .max(MAX_KEY_LENGTH)
    .optional()
    .describe(
      'Optional stable identifier, e.g. "user_preferred_editor". Reusing a key updates that memory; left out, it is derived from the content.',
    ),
  content: z.string().min(1).describe("The memory itself, as a self-contained sentence."),
  category: categoryInput
    .optional()
    .describe(
      'Default "core". Use "core" for durable facts and preferences, "daily" for notes about today, "conversation" for passing details.',
    ),
  importance: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("0..1, how important this is; leave it out to let the server decide."),
  sessionId: z
    .string()
    .min(1)
    .optional()
    .describe("The current conversation/session id, if you have one."),
};

export const recallInput = {
  query: z.string().max(10_000).describe("What to look for, in natural language or keywords."),
  // The same bounds as the HTTP API (0 returns nothing), so every channel agrees.
  limit: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .optional()
    .describe("How many results at most; default 5."),
  categories: z
    .array(z.string().min(1))
    .optional()
    .describe('Only these categories, e.g. ["core"].'),
  sessionId: z.string().min(1).optional().describe("Only memories from this session."),
  minScore: z
    .number()
    .min(0)
    .optional()
    .describe("Drop results whose relevance (0..1) is below this; default 0.3, 0 keeps all."),
};

export const forgetInput = {
  key: z.string().min(1).max(MAX_KEY_LENGTH).describe("The exact key to delete."),
};

export const listInput = {
  categories: z
    .array(z.string().min(1))
    .optional()
    .describe('Only these categories, e.g. ["core"].'),
  sessionId: z.string().min(1).optional().describe("Only memories from this session."),
  limit: z.number().int().min(1).max(200).optional().describe("How many at most; default 20."),
  offset: z.number().int().min(0).optional().describe("Skip this many (for paging)."),
};

export const contextInput = {
  message: z
    .string()
    .max(100_000)
    .describe(
      "The user's message to find memories for, verbatim; empty at the start of a conversation to get the standing core memories.",
    ),
  sessionId: z
    .string()
    .min(1)
    .max(MAX_SESSION_ID_LENGTH)
    .optional()
    .describe("Only recall memories from this session (core memories always count)."),
};
