import type { ChatModel, Memory, MemoryConfig } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { resolveChatModel } from "@memory/embeddings";
import { collectionsFromConfig, memoryContextOptionsFromConfig } from "@memory/lifecycle";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { FULL_ACCESS } from "./access.js";
import { type Logger, stderrLogger } from "./logger.js";
import { createMcpServer } from "./mcp-server.js";
import { openMemory } from "./open-memory.js";
import { resolveCollectionRoots, resolveMaxBodyBytes } from "./server-settings.js";
import { StdioMessageGate } from "./stdio-message-gate.js";
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
  /**
   * Largest message (one line), in bytes; larger ones get a JSON-RPC error. Default: the HTTP
   * channel's limit, `[server] max_body_bytes` (or `MEMORY_SERVER_MAX_BODY_BYTES`), 1 MiB.
   */
  maxMessageBytes?: number;
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
  // As `memory serve` reads them, checked before anything opens: the collection tools see
  // memory.toml's collections, and add/remove only folders inside collection_roots.
  const collections = {
    configured: collectionsFromConfig(config),
    roots: resolveCollectionRoots(config),
  };
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
  const maxMessageBytes = options.maxMessageBytes ?? resolveMaxBodyBytes(config, process.env);
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
    contextDefaults: memoryContextOptionsFromConfig(config.memory),
    collections,
  });
  // Size, UTF-8 and JSON-RPC shape are checked line by line before the SDK reads a message, and
  // a refused one is answered, as on the HTTP channel (stdio-message-gate.ts).
  const lines = stdin.pipe(
    new StdioMessageGate({
      maxMessageBytes,
      refuse: (response, reason) => {
        logger.warn(`memory MCP (stdio): refused a message (${reason})`);
        stdout.write(response);
      },
    }),
  );
  // The SDK's own buffer bound (10 MiB by default) stays above what the gate lets through, so
  // it never closes the input.
  const transport = new StdioServerTransport(lines as unknown as NodeJS.ReadStream, stdout, {
    maxBufferSize: 2 * maxMessageBytes + 65_536,
  });

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
