import type { ChatModel, Memory } from "@memory/api";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Access } from "./access.js";
import type { TurnSettings } from "./agent-turns.js";
import { toErrorResponse } from "./http-error.js";
import type { Logger } from "./logger.js";
import { registerMemoryResources } from "./mcp/resources.js";
import type { McpToolContext } from "./mcp/tool-definition.js";
import { MEMORY_TOOLS } from "./mcp/tools/index.js";
import type { OperationSettings } from "./operations/operation-scope.js";

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
  /**
   * memory.toml's collections and `[server].collection_roots`: memory_collection_list and
   * memory_collection_sync always; memory_collection_add and memory_collection_remove only
   * with roots (the same rule as `POST /v1/collections`).
   */
  collections?: OperationSettings["collections"];
  /** memory.toml's `auto_recall*` (memory_context), as `POST /v1/context` uses them. */
  contextDefaults?: OperationSettings["contextDefaults"];
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

function instructions(chatModel: ChatModel | null): string {
  const turn = chatModel
    ? " After a turn in which the user told you something lasting about themselves or their work, call memory_remember with the turn; otherwise memory_consolidate keeps a log of the turn."
    : " Call memory_consolidate after each turn to keep a log of it and save the user's rules and decisions.";
  return `Long-term memory that persists across conversations. At the start of a turn, memory_context gives what is stored about the user's message. Call memory_recall before answering questions that may depend on what the user told you earlier (preferences, facts about them or their work, past decisions). Call memory_store when the user states a durable fact, preference or decision worth remembering. Never store secrets such as passwords or API keys.${turn}`;
}

/**
 * An MCP server exposing one memory: the tools of src/mcp/tools (memory_remember only with a
 * chat model) and the resources of src/mcp/resources.ts, within the caller's namespaces. Each
 * tool result carries contents once, in its text part, within a size bound; the structured
 * part (the tool's output schema) carries the metadata.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { memory, access, logger } = options;
  const chatModel = options.chatModel ?? null;
  const server = new McpServer(
    { name: "memory", version: options.version },
    { instructions: instructions(chatModel) },
  );
  const shared = {
    memory,
    access,
    logger,
    chatModel,
    turnSettings: options.turnSettings ?? {},
    collections: options.collections ?? { configured: [], roots: [] },
    contextDefaults: options.contextDefaults ?? {},
  };
  for (const tool of MEMORY_TOOLS) {
    if (tool.available && !tool.available(shared)) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      (input: unknown, extra: { signal: AbortSignal }) =>
        guarded(logger, () =>
          tool.run(input as never, { ...shared, signal: extra.signal } satisfies McpToolContext),
        ),
    );
  }
  registerMemoryResources(server, memory, access);
  return server;
}
