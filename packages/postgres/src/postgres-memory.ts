import { type HealthReport, MemoryClosedError } from "@memory/api";
import { facadeOptionsFrom, MemoryFacade } from "@memory/core";
import { PostgresDriver } from "./postgres-driver.js";
import type { PostgresMemoryOptions } from "./postgres-options.js";

/**
 * PostgreSQL + pgvector memory: `@memory/core`'s facade over the PostgreSQL driver. Nothing
 * touches the database until the first operation (or `init()`), which migrates the schema
 * (under an advisory lock) and opens the vector table, once.
 */
export class PostgresMemory extends MemoryFacade {
  readonly #driver: PostgresDriver;

  constructor(options: PostgresMemoryOptions) {
    const driver = new PostgresDriver(options);
    super(driver, facadeOptionsFrom(options));
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
