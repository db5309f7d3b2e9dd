import type { HealthReport } from "@memory/api";
import type { FacadeContext } from "./facade-context.js";
import { vectorUnavailable } from "./vector-state.js";

/** The common fields of `healthCheck`, with the driver's part (entries, storage, details). */
export async function healthReport(context: FacadeContext): Promise<HealthReport> {
  const { driver, options, worker } = context;
  const [driverHealth, unavailable, stored] = await Promise.all([
    driver.health(),
    vectorUnavailable(context),
    driver.vectors.fingerprint(),
  ]);
  const embedder = options.embedder;
  // A driver that stores no vectors says best why (none: why it fell back; Markdown: no index).
  const ownReason = driver.capabilities.vectorSearch
    ? (unavailable ?? driverHealth.vectorProblem)
    : (driverHealth.vectorProblem ?? unavailable);
  const reason = embedder ? ownReason : unavailable;
  const vector: HealthReport["vector"] = {
    status: !embedder ? "disabled" : reason !== undefined ? "degraded" : "ok",
  };
  if (embedder) vector.providerFingerprint = embedder.fingerprint;
  if (stored !== undefined) vector.storedFingerprint = stored;
  if (reason !== undefined) vector.reason = reason;
  const writable = driverHealth.storage?.writable ?? true;
  const details: Record<string, unknown> = {
    ...driverHealth.details,
    // Entries whose content the deferred-embedding worker holds: at most one batch.
    queuedEmbeddings: worker.pending,
    embeddingWorker: context.defers ? worker.state : "off",
  };
  if (worker.lastError !== undefined) {
    details.lastEmbeddingError =
      worker.lastError instanceof Error ? worker.lastError.message : String(worker.lastError);
  }
  return {
    ok: writable,
    ...(driverHealth.storage ? { storage: driverHealth.storage } : {}),
    backend: driver.name,
    ...(driverHealth.entries === undefined ? {} : { entries: driverHealth.entries }),
    pendingEmbeddings: embedder ? await driver.vectors.countPending() : 0,
    vector,
    details,
  };
}
