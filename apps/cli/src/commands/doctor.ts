import { statSync } from "node:fs";
import type { EmbeddingProvider, HealthReport, Memory } from "@memory/api";
import type { CommandContext } from "../cli/command-context.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { formatErrorLine } from "../output/format-error.js";
import { resolveProvider } from "../store/open-memory.js";
import { DoctorReport, formatBytes } from "./shared/doctor-checks.js";

const message = (error: unknown) => formatErrorLine(error);

/** Finds a database size in the backend's health details, or measures the file it names. */
function databaseSize(
  details: Record<string, unknown>,
): { bytes: number; where?: string } | undefined {
  const file = [details.path, details.file, details.database].find(
    (value) => typeof value === "string",
  ) as string | undefined;
  for (const [key, value] of Object.entries(details)) {
    if (typeof value === "number" && /size|bytes/i.test(key)) {
      return file === undefined ? { bytes: value } : { bytes: value, where: file };
    }
  }
  if (file === undefined || file === ":memory:") return undefined;
  // SQLite keeps recent writes in the -wal file; both count towards disk use.
  let bytes = 0;
  for (const part of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      bytes += statSync(part).size;
    } catch {
      // A missing -wal/-shm file is normal.
    }
  }
  return { bytes, where: file };
}

async function checkStore(context: CommandContext, report: DoctorReport): Promise<void> {
  let memory: Memory;
  let health: HealthReport;
  // Backends open lazily, so the store is really opened by its first operation: healthCheck.
  try {
    ({ memory } = await context.open("configured"));
    health = await memory.healthCheck();
  } catch (error) {
    report.add(
      "backend",
      "fail",
      `cannot open the store: ${message(error)}`,
      "fix the path or connection in memory.toml, then run `memory doctor` again",
    );
    return;
  }
  const configured = context.config().config.memory.backend;
  if (health.backend !== configured) {
    report.add(
      "backend",
      "fail",
      `${configured} is unavailable; running as ${health.backend}: ${String(health.details.reason ?? "")}`.trim(),
      "fix the store, or remove fallback_to_none to see the error",
    );
    return;
  }
  report.add(
    "backend",
    health.ok ? "ok" : "fail",
    `${memory.name} opened${health.entries === undefined ? "" : `, ${health.entries} entries`}${typeof health.details.schemaVersion === "number" ? `, schema v${health.details.schemaVersion}` : ""}`,
  );

  const extensions = Object.entries(health.details).filter(([key]) => /extension/i.test(key));
  if (extensions.length > 0) {
    const missing = extensions.filter(
      ([, value]) =>
        value === false || value === undefined || /not loaded|failed|error/i.test(String(value)),
    );
    report.add(
      "extensions",
      missing.length > 0 ? "fail" : "ok",
      extensions.map(([key, value]) => `${key} ${String(value)}`).join(", "),
      missing.length > 0
        ? "reinstall the backend's native packages (for sqlite: sqlite-vec); vector recall is off until then"
        : undefined,
    );
  }

  if (memory.capabilities.keywordSearch) {
    try {
      await memory.recall("doctor probe", { mode: "bm25", limit: 1 });
      report.add("full text", "ok", "keyword search answers");
    } catch (error) {
      report.add(
        "full text",
        "fail",
        `keyword search failed: ${message(error)}`,
        "run `memory reindex` or restore the store from an export",
      );
    }
  } else {
    report.add("full text", "warn", `the ${memory.name} backend has no keyword search`);
  }

  const vector = health.vector;
  const fingerprints = [
    vector.providerFingerprint && `provider ${vector.providerFingerprint}`,
    vector.storedFingerprint && `stored ${vector.storedFingerprint}`,
  ].filter(Boolean);
  if (vector.status === "ok") {
    report.add("fingerprint", "ok", `vectors match the provider (${fingerprints.join(", ")})`);
  } else {
    const fix =
      vector.status === "degraded"
        ? "run `memory reindex`"
        : 'set embedding_provider (e.g. "local") in memory.toml';
    report.add(
      "recall",
      "warn",
      `recall will be keyword-only: ${vector.reason ?? vector.status}${fingerprints.length ? ` (${fingerprints.join(", ")})` : ""}`,
      fix,
    );
  }

  if (typeof health.details.lastEmbeddingError === "string") {
    report.add(
      "embedding",
      "warn",
      `last embedding error: ${health.details.lastEmbeddingError}`,
      "check the provider, then run `memory backfill`",
    );
  }
  if (health.pendingEmbeddings > 0 && vector.status === "ok") {
    report.add(
      "pending",
      "warn",
      `${health.pendingEmbeddings} entries wait for an embedding`,
      "run `memory backfill`",
    );
  } else {
    report.add("pending", "ok", `${health.pendingEmbeddings} entries without an embedding`);
  }

  const size = databaseSize(health.details);
  if (size)
    report.add("size", "ok", `${formatBytes(size.bytes)}${size.where ? ` (${size.where})` : ""}`);
}

/**
 * One real embedding call, as recall would make it: a provider that is configured but cannot
 * embed (down, wrong key, wrong dimensions, non-finite output) leaves recall keyword-only.
 */
async function probeEmbedding(provider: EmbeddingProvider, report: DoctorReport): Promise<void> {
  const started = performance.now();
  try {
    const vector = await provider.embedOne("memory doctor probe", { purpose: "query" });
    const elapsed = Math.round(performance.now() - started);
    if (vector.length !== provider.dimensions || !vector.every(Number.isFinite)) {
      report.add(
        "embed call",
        "fail",
        `${provider.fingerprint} returned ${vector.length} values${vector.every(Number.isFinite) ? "" : " (some not finite)"}, expected ${provider.dimensions} finite numbers`,
        "check embedding_model and embedding_dims in memory.toml",
      );
      return;
    }
    report.add("embed call", "ok", `${provider.fingerprint} embedded a query in ${elapsed} ms`);
  } catch (error) {
    report.add(
      "embed call",
      "fail",
      `${provider.fingerprint} failed: ${message(error)}; recall answers from keywords until it works`,
      "check the provider's URL, key and model (embedding_provider, embedding_model in memory.toml)",
    );
  } finally {
    await (provider as { close?: () => Promise<void> }).close?.();
  }
}

/** `memory doctor`: checks every layer and says what to run; exit 1 when a check fails. */
const doctor: CommandHandler = async (context) => {
  const report = new DoctorReport();
  let configured = false;
  try {
    const { location, config } = context.config();
    report.add(
      "config",
      "ok",
      `${location.file ?? "no file (defaults + environment)"}: backend ${config.memory.backend}`,
    );
    configured = true;
  } catch (error) {
    report.add(
      "config",
      "fail",
      message(error),
      "fix the file (`memory config validate`) or run `memory init`",
    );
  }
  if (configured) {
    try {
      const { provider, reason } = await resolveProvider(context.config().config);
      report.add("embeddings", provider ? "ok" : "warn", reason);
      if (provider) await probeEmbedding(provider, report);
    } catch (error) {
      report.add("embeddings", "fail", message(error), "fix embedding_provider in memory.toml");
    }
    await checkStore(context, report);
  }
  if (!report.ok) context.exitCode = EXIT_CODES.failure;
  const style = context.output.style;
  const mark = {
    ok: style.green("ok  "),
    warn: style.yellow("warn"),
    fail: style.red("FAIL"),
    skip: "skip",
  };
  context.output.result({ ok: report.ok, checks: report.checks }, () => [
    ...report.checks.flatMap((check) => [
      `${mark[check.status]}  ${check.name.padEnd(11)} ${check.message}`,
      ...(check.fix ? [`      ${"".padEnd(11)} ${style.dim(`-> ${check.fix}`)}`] : []),
    ]),
    report.ok ? "doctor: no failures" : "doctor: some checks failed",
  ]);
};

export default doctor;
