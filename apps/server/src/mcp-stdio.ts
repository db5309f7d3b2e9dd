import { type ChatModel, defaultConfig, type Memory, type MemoryConfig } from "@memory/api";
import { resolveChatModel } from "@memory/embeddings";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { FULL_ACCESS } from "./access.js";
import { type Logger, stderrLogger } from "./logger.js";
import { createMcpServer } from "./mcp-server.js";
import { openMemory } from "./open-memory.js";
import { invalidUtf8Response, Utf8Lines } from "./utf8-lines.js";
import { VERSION } from "./version.js";

export interface RunMcpStdioOptions {
  config?: MemoryConfig;
  /** Serve this memory instead of opening the configured one; it is not closed. */
  memory?: Memory;
  logger?: Logger;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  loadModule?: (specifier: string) => Promise<unknown>;
  /** Flush timeout when stdin ends; default 10 s. */
  shutdownTimeoutMs?: number;
  /**
   * The chat model of the tool `memory_remember` (offered only with one). Default: what
   * `chat_provider` resolves to; null: none.
   */
  chatModel?: ChatModel | null;
}

export interface McpStdioHandle {
  /** Resolves once stdin has ended (or `close()` ran) and the memory is flushed and closed. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves MCP over stdin/stdout (what `memory mcp` runs): the local user, full access to every
 * namespace. Logs go to stderr; stdout carries only protocol messages.
 */
export async function runMcpStdio(options: RunMcpStdioOptions = {}): Promise<McpStdioHandle> {
  const logger = options.logger ?? stderrLogger;
  const config = options.config ?? defaultConfig();
  const chatModel =
    options.chatModel === undefined ? resolveChatModel(config.memory) : options.chatModel;
  let memory = options.memory;
  const owned = memory === undefined;
  if (!memory) {
    const opened = await openMemory(config, {
      logger,
      ...(options.loadModule ? { loadModule: options.loadModule } : {}),
    });
    memory = opened.memory;
    logger.info(
      `memory MCP (stdio): backend ${memory.name}, recall ${opened.embedding.mode} (${opened.embedding.detail})`,
    );
  }
  const served = memory;
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (options.stdout ?? process.stdout) as NodeJS.WriteStream;
  const server = createMcpServer({
    memory: served,
    access: FULL_ACCESS,
    version: VERSION,
    logger,
    chatModel,
    turnSettings: {
      conflictThreshold: config.memory.conflict_threshold,
      rememberRetries: config.memory.remember_retries,
    },
  });
  // Invalid UTF-8 is refused line by line before the SDK decodes it, as on the HTTP routes.
  const lines = stdin.pipe(
    new Utf8Lines(() => {
      logger.warn("memory MCP (stdio): refused a message that is not valid UTF-8");
      stdout.write(invalidUtf8Response());
    }),
  );
  const transport = new StdioServerTransport(lines as unknown as NodeJS.ReadStream, stdout);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stdin.off("end", onEnd);
      await server.close().catch(() => {});
      try {
        await served.flush({ timeoutMs: options.shutdownTimeoutMs ?? 10_000 });
      } catch (error) {
        logger.warn(`Deferred embeddings did not finish: ${(error as Error).message}`);
      }
      if (owned) await served.close();
      resolveClosed();
    })();
    return closing;
  };
  // The SDK transport does not watch for the end of input; the client closing stdin ends the session.
  const onEnd = () => {
    void close();
  };
  stdin.once("end", onEnd);
  await server.connect(transport);
  return { closed, close };
}
