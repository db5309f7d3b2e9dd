import { type HealthReport, MemoryClosedError, type RetrievalSettings } from "@memory/api";
import { MemoryFacade, type MemoryFacadeOptions, RETRIEVAL_SETTING_NAMES } from "@memory/core";
import { PostgresDriver } from "./postgres-driver.js";
import type { PostgresMemoryOptions } from "./postgres-options.js";

/** The facade's part of the options: provider, retrieval settings, embedding jobs, clock. */
function facadeOptions(options: PostgresMemoryOptions): MemoryFacadeOptions {
  const settings: Partial<RetrievalSettings> = {};
  for (const name of RETRIEVAL_SETTING_NAMES) {
    if (options[name] !== undefined) Object.assign(settings, { [name]: options[name] });
  }
  const facade: MemoryFacadeOptions = { settings };
  if (options.embedder) facade.embedder = options.embedder;
  if (options.chatModel) facade.chatModel = options.chatModel;
  if (options.deferEmbedding !== undefined) facade.deferEmbedding = options.deferEmbedding;
  if (options.logger) facade.logger = options.logger;
  if (options.now) facade.now = options.now;
  if (options.embeddingWorker) {
    // `batchSize` is the facade's `embeddingBatchSize`; the rest is the worker's timing.
    const { batchSize, ...worker } = options.embeddingWorker;
    if (batchSize !== undefined) facade.embeddingBatchSize = batchSize;
    facade.embeddingWorker = worker;
  }
  return facade;
}

/**
 * PostgreSQL + pgvector memory: `@memory/core`'s facade over the PostgreSQL driver. Nothing
 * touches the database until the first operation (or `init()`), which migrates the schema
 * (under an advisory lock) and opens the vector table, once.
 */
export class PostgresMemory extends MemoryFacade {
  readonly #driver: PostgresDriver;

  constructor(options: PostgresMemoryOptions) {
    const driver = new PostgresDriver(options);
    super(driver, facadeOptions(options));
    this.#driver = driver;
  }

  /** The schema this memory lives in. */
  get schema(): string {
    return this.#driver.schema;
  }

  /** A health check reports an outage (server down, schema unreadable) instead of throwing it. */
  override async healthCheck(): Promise<HealthReport> {
    try {
      return await super.healthCheck();
    } catch (error) {
      if (error instanceof MemoryClosedError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const embedder = this.capabilities.vectorSearch;
      return {
        ok: false,
        backend: this.name,
        pendingEmbeddings: 0,
        vector: {
          status: embedder ? "degraded" : "disabled",
          reason: `the database is unavailable: ${message}`,
        },
        details: {
          schema: this.#driver.schema,
          error: message,
          code: (error as { code?: string }).code,
        },
      };
    }
  }
}

/** Creates a PostgreSQL memory. No I/O happens until the first operation (or `init()`). */
export function createPostgresMemory(options: PostgresMemoryOptions): PostgresMemory {
  return new PostgresMemory(options);
}
