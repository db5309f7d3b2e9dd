import type { MemoryDriver, PendingEntry } from "@memory/api";
import type { EmbeddingWorker } from "./embedding-worker.js";
import type { ResolvedFacadeOptions } from "./facade-options.js";
import type { RecallEngine } from "./recall/recall-engine.js";
import type { UsageRecorder } from "./usage/usage-recorder.js";

/**
 * What the facade's concerns (store, reads, imports, embedding jobs...) share: the open driver
 * and the facade's own parts. Built once the driver is open.
 */
export interface FacadeContext {
  readonly driver: MemoryDriver;
  readonly options: ResolvedFacadeOptions;
  /** The recall engine over the driver's stages (the facade's hot cache lives in it). */
  readonly engine: RecallEngine;
  /** The deferred-embedding worker (also holds the last embedding error for healthCheck). */
  readonly worker: EmbeddingWorker<unknown, PendingBatchOf>;
  /** Whether stores leave embedding to the background worker (`defer_embedding`, honoured). */
  readonly defers: boolean;
  /** Writes recall events (`capabilities.usage` only; undefined without). */
  readonly usage: UsageRecorder | undefined;
  /** Throws MemoryClosedError once `close()` ran: long operations call it between awaits. */
  assertOpen(): void;
  /** Drops cached recalls after a write (one namespace, or every one). */
  written(namespace?: string): void;
}

/** One batch of the embedding worker. */
export interface PendingBatchOf {
  readonly cursor: unknown;
  readonly size: number;
  readonly entries: PendingEntry[];
}
