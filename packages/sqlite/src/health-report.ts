import type { HealthReport } from "@memory/api";
import { pendingCount } from "./embeddings/embedding-jobs.js";
import { SCHEMA_VERSION } from "./migrations/schema.js";
import type { Opened } from "./opened-store.js";

/** The health report of an open store: entry counts, vector state and database details. */
export function healthReport(opened: Opened): HealthReport {
  const { embedder, connection } = opened;
  const vector: HealthReport["vector"] = { status: embedder.status };
  if (embedder.provider) vector.providerFingerprint = embedder.provider.fingerprint;
  if (embedder.storedFingerprint !== undefined)
    vector.storedFingerprint = embedder.storedFingerprint;
  if (embedder.reason !== undefined) vector.reason = embedder.reason;
  const pageCount = connection.db.pragma("page_count", { simple: true }) as number;
  const pageSize = connection.db.pragma("page_size", { simple: true }) as number;
  const lastError = opened.queue.lastError;
  return {
    ok: true,
    backend: "sqlite",
    entries: (opened.statements.get("SELECT count(*) AS n FROM memories").get() as { n: number }).n,
    pendingEmbeddings: pendingCount(opened),
    vector,
    details: {
      file: connection.file,
      sizeBytes: pageCount * pageSize,
      schemaVersion: SCHEMA_VERSION,
      vectorIndexLoaded: opened.vectors.loaded,
      // Entries whose content the deferred-embedding worker holds: at most one batch.
      queuedEmbeddings: opened.queue.pending,
      embeddingWorker: opened.options.deferEmbedding ? opened.queue.state : "off",
      ...(lastError === undefined
        ? {}
        : {
            lastEmbeddingError: lastError instanceof Error ? lastError.message : String(lastError),
          }),
    },
  };
}
