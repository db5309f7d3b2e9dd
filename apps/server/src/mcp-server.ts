import {
  type ChatModel,
  contentKey,
  InvalidInputError,
  MAX_KEY_LENGTH,
  MAX_NAMESPACE_LENGTH,
  type Memory,
  type MemoryEntry,
} from "@memory/api";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Access, resolveNamespace } from "./access.js";
import { consolidateOne, rememberOne, type TurnSettings } from "./agent-turns.js";
import { toErrorResponse } from "./http-error.js";
import type { Logger } from "./logger.js";
import { readMemoryFile, snippetOf } from "./memory-files.js";
import { ConflictDecisionSchema, MemoryEntrySchema } from "./schemas.js";

export interface McpServerOptions {
  memory: Memory;
  /** What the caller may touch; stdio gets full access. */
  access: Access;
  version: string;
  logger: Logger;
  /**
   * The chat model `memory_remember` uses; without one the tool is not offered (an agent
   * should not see a tool that can only fail).
   */
  chatModel?: ChatModel | null;
  /** `conflict_threshold` (memory_consolidate) and `remember_retries` (memory_remember). */
  turnSettings?: TurnSettings;
}

// Lengths come from the contract (docs/input-rules.md); the library checks the rest and answers
// INVALID_INPUT, as it does for HTTP, the CLI and imports.
const namespaceInput = z
  .string()
  .min(1)
  .max(MAX_NAMESPACE_LENGTH)
  .optional()
  .describe(
    "Optional memory space to use. Leave it out unless you were told which namespace to use.",
  );
const categoryInput = z
  .string()
  .min(1)
  .max(64)
  .describe(
    '"core" for durable facts, preferences and decisions; "daily" for notes about today; "conversation" for passing details of this chat; or a custom name (letters, digits, - and _).',
  );

// Tool results carry entries without embeddings: they are noise to a model.
const EntryOutput = MemoryEntrySchema.omit({ embedding: true });

const turnInput = {
  message: z.string().max(100_000).describe("The user's message of the turn, verbatim."),
  reply: z
    .string()
    .max(100_000)
    .optional()
    .describe("Your reply to it, when you have written one."),
  sessionId: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe("The current conversation/session id, if you have one."),
};

function compact(entry: MemoryEntry): MemoryEntry {
  const { embedding: _embedding, ...rest } = entry;
  return rest;
}

function defined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function line(entry: MemoryEntry): string {
  const score = entry.score === undefined ? "" : ` (score ${entry.score.toFixed(3)})`;
  const superseded = entry.supersededBy ? ` [superseded by ${entry.supersededBy}]` : "";
  // File-backed results: where they are (for memory_get with a path) and a snippet.
  if (entry.source) {
    const { path, startLine, endLine } = entry.source;
    return `[${entry.category}] ${entry.key}${score}${superseded} (${path}:${startLine}-${endLine}): ${snippetOf(entry.content)}`;
  }
  return `[${entry.category}] ${entry.key}${score}${superseded}: ${entry.content}`;
}

function result(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/**
 * Runs a tool body and turns a thrown error into a tool error the model can read and act on
 * (code + message), instead of a protocol error.
 */
async function guarded(
  logger: Logger,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const { body, internal } = toErrorResponse(error);
    if (internal) logger.error("MCP tool failed", error);
    return {
      isError: true,
      content: [{ type: "text", text: `${body.error.code}: ${body.error.message}` }],
    };
  }
}

/**
 * An MCP server exposing one memory as tools: memory_store, memory_recall, memory_get,
 * memory_forget, memory_list, memory_consolidate, and memory_remember when a chat model is
 * configured. Descriptions are written for the model that calls them; every
 * result has a readable text part and a structured part matching the tool's output schema.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { memory, access, logger } = options;
  const chatModel = options.chatModel ?? null;
  const turnSettings = options.turnSettings ?? {};
  const server = new McpServer(
    { name: "memory", version: options.version },
    {
      instructions: `Long-term memory that persists across conversations. Call memory_recall before answering questions that may depend on what the user told you earlier (preferences, facts about them or their work, past decisions). Call memory_store when the user states a durable fact, preference or decision worth remembering. Never store secrets such as passwords or API keys.${chatModel ? " After a turn in which the user told you something lasting about themselves or their work, call memory_remember with the turn; otherwise memory_consolidate keeps a log of the turn." : " Call memory_consolidate after each turn to keep a log of it and save the user's rules and decisions."}`,
    },
  );

  server.registerTool(
    "memory_store",
    {
      title: "Remember something",
      description:
        'Save a fact, preference, decision or note to long-term memory so it can be recalled in later conversations. Write the content as a self-contained sentence ("The user prefers Neovim for editing code"), not a fragment. Category: "core" (the default) for durable facts, preferences and decisions about the user or their work; "daily" for what happened today (notes, progress); "conversation" only for passing details of this chat. The key is optional: leave it out and one is derived from the content (the same text stored twice stays one memory), or give a short, stable, descriptive key such as "user_preferred_editor": storing again under the same key replaces the old content, which is how you correct or update a memory. Never store secrets.',
      inputSchema: {
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
        namespace: namespaceInput,
      },
      outputSchema: { entry: EntryOutput },
      annotations: { idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    (input) =>
      guarded(logger, async () => {
        const namespace = resolveNamespace(access, input.namespace);
        // Without a key, the one `memory store` derives: the same text stays one memory.
        const key = input.key ?? contentKey(input.content);
        const entry = compact(await memory.store(defined({ ...input, key, namespace })));
        const superseded = entry.conflict?.superseded ?? [];
        const replaced =
          superseded.length === 0 ? "" : ` It replaces the older memory ${superseded.join(", ")}.`;
        return result(
          `Stored "${entry.key}" (${entry.category}) in namespace "${entry.namespace}".${replaced}`,
          { entry },
        );
      }),
  );

  server.registerTool(
    "memory_recall",
    {
      title: "Search memory",
      description:
        "Search long-term memory for what is relevant to a question or topic; best matches first, each with a relevance score (higher is better). Use it before answering when the user refers to earlier conversations, their preferences, their projects, or anything they told you before. Query with the user's words or a few keywords. An empty query returns the most recent memories.",
      inputSchema: {
        query: z
          .string()
          .max(10_000)
          .describe("What to look for, in natural language or keywords."),
        // The same bounds as the HTTP API (0 returns nothing), so both channels agree.
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
        namespace: namespaceInput,
      },
      outputSchema: { results: z.array(EntryOutput) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(logger, async () => {
        const { query, namespace: requested, ...rest } = input;
        const namespace = resolveNamespace(access, requested);
        const results = (
          await memory.recall(query, defined({ ...rest, limit: rest.limit ?? 5, namespace }))
        ).map(compact);
        const text =
          results.length === 0
            ? "No matching memories."
            : results.map((entry, index) => `${index + 1}. ${line(entry)}`).join("\n");
        return result(text, { results });
      }),
  );

  server.registerTool(
    "memory_get",
    {
      title: "Read one memory",
      description:
        "Read one memory by its exact key, when you already know the key (from memory_recall, memory_list, or because you stored it). Returns found=false when there is no memory with that key. With a Markdown memory, pass `path` (and `from`, `lines`) instead of a key to read lines of a memory file, e.g. around a memory_recall result's path and line range.",
      inputSchema: {
        key: z.string().min(1).max(MAX_KEY_LENGTH).optional().describe("The exact key."),
        path: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe(
            "Instead of a key: a memory file (MEMORY.md, memory/2026-11-24.md) to read lines of.",
          ),
        from: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("With path: first line (1-based); default 1."),
        lines: z
          .number()
          .int()
          .min(1)
          .max(2000)
          .optional()
          .describe("With path: how many lines; default all (at most 2000)."),
        namespace: namespaceInput,
      },
      outputSchema: {
        found: z.boolean(),
        entry: EntryOutput.optional(),
        file: z
          .object({
            path: z.string(),
            namespace: z.string(),
            from: z.number(),
            to: z.number(),
            totalLines: z.number(),
            text: z.string(),
          })
          .optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(logger, async () => {
        if ((input.key === undefined) === (input.path === undefined))
          throw new InvalidInputError("memory_get needs either key or path, not both.");
        if (input.path !== undefined) {
          const file = await readMemoryFile(memory, access, {
            path: input.path,
            from: input.from,
            lines: input.lines,
          });
          return result(file.text, { found: true, file });
        }
        const namespace = resolveNamespace(access, input.namespace);
        const entry = await memory.get(input.key as string, { namespace });
        if (!entry) return result(`No memory with key "${input.key}".`, { found: false });
        return result(line(entry), { found: true, entry: compact(entry) });
      }),
  );

  server.registerTool(
    "memory_forget",
    {
      title: "Forget one memory",
      description:
        "Permanently delete one memory by its exact key. Use it when the user asks you to forget something, or a memory is wrong and should not exist at all. To correct a memory, call memory_store with the same key instead.",
      inputSchema: {
        key: z.string().min(1).max(MAX_KEY_LENGTH).describe("The exact key to delete."),
        namespace: namespaceInput,
      },
      outputSchema: {
        deleted: z.boolean().describe("False when there was no memory with that key."),
      },
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(logger, async () => {
        const namespace = resolveNamespace(access, input.namespace);
        const deleted = await memory.forget(input.key, { namespace });
        return result(
          deleted ? `Forgot "${input.key}".` : `There was no memory with key "${input.key}".`,
          { deleted },
        );
      }),
  );

  server.registerTool(
    "memory_list",
    {
      title: "List memories",
      description:
        "List stored memories, newest first, optionally only some categories or one session. Use it to browse what is stored; use memory_recall to search by meaning.",
      inputSchema: {
        categories: z
          .array(z.string().min(1))
          .optional()
          .describe('Only these categories, e.g. ["core"].'),
        sessionId: z.string().min(1).optional().describe("Only memories from this session."),
        limit: z
          .number()
          .int()
          .min(1)
          .max(200)
          .optional()
          .describe("How many at most; default 20."),
        offset: z.number().int().min(0).optional().describe("Skip this many (for paging)."),
        namespace: namespaceInput,
      },
      outputSchema: { entries: z.array(EntryOutput) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(logger, async () => {
        const namespace = resolveNamespace(access, input.namespace);
        const entries = (
          await memory.list(defined({ ...input, limit: input.limit ?? 20, namespace }))
        ).map(compact);
        const text =
          entries.length === 0
            ? "No memories stored yet."
            : entries.map((entry) => `- ${line(entry)}`).join("\n");
        return result(text, { entries });
      }),
  );

  server.registerTool(
    "memory_consolidate",
    {
      title: "Log a turn and keep its rules",
      description:
        'Consolidate one conversation turn, after you have answered it: the turn is kept as a dated log entry ("daily"), and when the user\'s message states a rule or decision (words such as "always", "never", "must", "important", "rule", "decision") it is also saved as a durable "core" memory, replacing older memories it contradicts (e.g. "Always use tabs" replaces "The user prefers spaces"). No language model is involved, so it is cheap: call it once per turn, with the user\'s message verbatim and your reply. Chit-chat is only logged; automated lines (cron, heartbeat, injected memory context) are skipped. To save a specific fact in your own words, use memory_store instead.',
      inputSchema: { ...turnInput, namespace: namespaceInput },
      outputSchema: {
        daily: EntryOutput.optional().describe("The log entry of the turn."),
        promoted: EntryOutput.optional().describe("The message saved as a core memory."),
        importance: z.number(),
        notPromoted: z.enum(["importance", "too-short", "filtered"]).optional(),
        superseded: z.array(z.string()).describe("Keys of older memories it replaced."),
        conflict: ConflictDecisionSchema.optional(),
        skipped: z.enum(["empty", "filtered"]).optional(),
      },
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input) =>
      guarded(logger, async () => {
        const namespace = resolveNamespace(access, input.namespace);
        const report = await consolidateOne(memory, input, namespace, turnSettings);
        const lines: string[] = [];
        if (report.skipped === "empty") lines.push("Nothing to consolidate: the message is empty.");
        else if (report.skipped === "filtered")
          lines.push(
            "Not consolidated: automated turns (cron, heartbeat, memory context) are skipped.",
          );
        else {
          lines.push(`Logged the turn as "${report.daily?.key}" (daily).`);
          lines.push(
            report.promoted
              ? `Saved the message as core memory "${report.promoted.key}".`
              : "The message was not saved as a core memory (no rule or decision in it).",
          );
          if (report.superseded.length > 0)
            lines.push(`It replaces the older memory ${report.superseded.join(", ")}.`);
        }
        return result(lines.join(" "), { ...report });
      }),
  );

  if (chatModel) {
    server.registerTool(
      "memory_remember",
      {
        title: "Remember what the user said",
        description:
          "Remember one conversation turn, after you have answered it, when the user told you something lasting: a preference, a decision, a fact about themselves, their work or their projects. The turn is saved as it is, then the server's language model extracts each durable fact from it and saves it as its own core memory (updating the memory with the same subject). Pass the user's message verbatim and your reply. It costs a model call: skip turns with nothing lasting in them (use memory_consolidate for those, or nothing). If it fails, the turn itself is already saved; do not retry in a loop. To save one fact in your own words, use memory_store.",
        inputSchema: { ...turnInput, namespace: namespaceInput },
        outputSchema: {
          turn: EntryOutput.nullable().describe("The saved turn; null when it was skipped."),
          facts: z
            .array(EntryOutput.extend({ kind: z.string() }))
            .describe("The durable facts saved as core memories."),
          attempts: z.number().int(),
        },
        annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
      },
      (input, extra) =>
        guarded(logger, async () => {
          const namespace = resolveNamespace(access, input.namespace);
          const remembered = await rememberOne(memory, chatModel, input, namespace, {
            ...turnSettings,
            signal: extra.signal,
          });
          if (!remembered.turn)
            return result(
              "Not remembered: empty or automated turns (cron, heartbeat, memory context) are skipped.",
              { ...remembered },
            );
          const facts = remembered.facts.map((fact) => {
            const replaced = fact.conflict?.superseded ?? [];
            const note = replaced.length > 0 ? ` (replaces ${replaced.join(", ")})` : "";
            return `- ${fact.key} (${fact.kind}): ${fact.content}${note}`;
          });
          return result(
            [
              `Saved the turn as "${remembered.turn.key}".`,
              facts.length === 0
                ? "No durable fact found in it."
                : `${facts.length} fact(s) saved as core memories:`,
              ...facts,
            ].join("\n"),
            { ...remembered },
          );
        }),
    );
  }

  return server;
}
