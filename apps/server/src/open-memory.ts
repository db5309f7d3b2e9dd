import type { EmbeddingProvider, Memory, MemoryConfig } from "@memory/api";
import { embeddingsDisabled, openConfiguredMemory, resolveConfiguredProvider } from "@memory/core";
import { banner, type Logger, stderrLogger } from "./logger.js";

export interface OpenMemoryOptions {
  logger?: Logger;
  /** How long the embedding model may take to answer its start-up probe; default 120 s. */
  probeTimeoutMs?: number;
  /** Loads backend and provider packages; default `import()` from this package. */
  loadModule?: (specifier: string) => Promise<unknown>;
}

export interface OpenedMemory {
  memory: Memory;
  /** What recall runs on: `vector` (hybrid available) or `keyword-only`, and why. */
  embedding: { mode: "vector" | "keyword-only"; detail: string };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Opens the configured memory for a long-running server. The embedding provider is resolved
 * and probed with one real embedding first: a model that cannot load (missing optional
 * package, corrupt model file) must not stop the server, so it starts keyword-only instead and
 * says so loudly. Configuration errors (bad backend, unreadable database) still reject.
 */
export async function openMemory(
  config: MemoryConfig,
  options: OpenMemoryOptions = {},
): Promise<OpenedMemory> {
  const logger = options.logger ?? stderrLogger;
  const loadModule = options.loadModule ?? ((specifier: string) => import(specifier));
  // Auto-hydration and the warnings about [memory] keys the backend ignores go to the log.
  const log = (line: string) => logger.warn(line);
  const keywordOnly = async () =>
    (
      await openConfiguredMemory(config, {
        embeddings: "none",
        loadModule,
        longRunning: true,
        log,
      })
    ).memory;
  const name = config.memory.embedding_provider;
  if (embeddingsDisabled(config.memory) || config.memory.backend === "none") {
    return {
      memory: await keywordOnly(),
      embedding: { mode: "keyword-only", detail: `embedding_provider = "${name}"` },
    };
  }
  let provider: EmbeddingProvider | undefined;
  let detail: string;
  try {
    const resolved = await resolveConfiguredProvider(config, { loadModule });
    detail = resolved.reason;
    if (resolved.provider) {
      logger.info(`Loading the embedding model (${resolved.provider.fingerprint})...`);
      await withTimeout(
        resolved.provider.embedOne("memory server start-up probe", { purpose: "query" }),
        options.probeTimeoutMs ?? 120_000,
        `The embedding provider ${resolved.provider.name}`,
      );
      provider = resolved.provider;
    }
  } catch (error) {
    detail = (error as Error).message;
  }
  if (!provider) {
    banner(logger, [
      `The embedding provider "${name}" is not available: ${detail.split("\n")[0]}`,
      "The server runs KEYWORD-ONLY: recall uses BM25 full-text search, no vectors.",
      "Writes are kept; run `memory backfill` once the provider works to add the vectors.",
      'Fix: install the provider\'s optional packages, or set embedding_provider = "noop" to silence this.',
    ]);
    return {
      memory: await keywordOnly(),
      embedding: {
        mode: "keyword-only",
        detail: `"${name}" unavailable: ${detail.split("\n")[0]}`,
      },
    };
  }
  const opened = await openConfiguredMemory(config, {
    embedder: provider,
    loadModule,
    longRunning: true,
    log,
  });
  return {
    memory: opened.memory,
    embedding: { mode: "vector", detail: `${provider.fingerprint} (${detail})` },
  };
}
