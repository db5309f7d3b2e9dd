import type { Memory } from "@memory/api";

const startedAt = Date.now();

export function liveness(version: string) {
  return {
    status: "ok" as const,
    version,
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
  };
}

/**
 * Readiness: not ready when the backend is unusable, cannot be written (full disk, read-only
 * store: reads keep working) or the stored vectors were made by another embedding model.
 */
export async function readiness(memory: Memory, version: string) {
  const reasons: string[] = [];
  let report: Awaited<ReturnType<Memory["healthCheck"]>> | undefined;
  try {
    report = await memory.healthCheck();
    if (report.storage?.writable === false) {
      reasons.push(`the store cannot be written: ${report.storage.reason ?? "no reason given"}`);
    } else if (!report.ok) reasons.push(`backend ${report.backend} is not usable`);
    const { providerFingerprint, storedFingerprint } = report.vector;
    if (providerFingerprint && storedFingerprint && providerFingerprint !== storedFingerprint) {
      reasons.push(
        `stored vectors were made with ${storedFingerprint} but the provider is ${providerFingerprint}: run \`memory reindex\``,
      );
    }
  } catch (error) {
    reasons.push(`health check failed: ${(error as Error).message}`);
  }
  return {
    status: reasons.length === 0 ? ("ready" as const) : ("not_ready" as const),
    version,
    backend: report?.backend ?? memory.name,
    reasons,
    pendingEmbeddings: report?.pendingEmbeddings ?? 0,
    vector: report?.vector ?? { status: "disabled" as const },
  };
}
