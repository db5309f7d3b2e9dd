import { statSync } from "node:fs";
import {
  type ChatModel,
  type EmbeddingProvider,
  type HealthReport,
  type Memory,
  MemoryError,
  type MemorySettings,
} from "@memory/api";
import { CHAT_API_KEY_ENV, resolveChatModel } from "@memory/embeddings";
import type { CommandContext } from "../cli/command-context.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { formatErrorLine } from "../output/format-error.js";
import { backendDoctorHints, describeStore, resolveProvider } from "../store/open-memory.js";
import { DoctorReport, formatBytes } from "./shared/doctor-checks.js";
import {
  inspectMemoryFiles,
  type MemoryFilesState,
  reportMemoryFiles,
} from "./shared/doctor-files.js";

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

/**
 * What to change when a store cannot be written, by configuration key: the backend's own advice
 * (`BackendModule.doctorHints`), else the generic one.
 */
async function writableFix(context: CommandContext): Promise<string> {
  const { config } = context.config();
  const hints = await backendDoctorHints(config).catch(() => undefined);
  return (
    hints?.notWritable?.(config) ??
    `make the store writable, or point data_dir / the [${config.memory.backend}] table in memory.toml at a writable place`
  );
}

/**
 * A store that does not answer: the backend's own reading of the error (where it looked, never
 * a password, and what to check), else a generic one naming the store's location.
 */
async function describeOutage(
  context: CommandContext,
  health: HealthReport,
): Promise<{ message: string; fix: string }> {
  const error = String(health.details.error ?? health.details.reason ?? "no answer");
  const { config, location } = context.config();
  const hints = await backendDoctorHints(config).catch(() => undefined);
  const advice = hints?.unavailable?.(config, error, { file: location.file, env: process.env });
  if (advice) return advice;
  const backend = health.backend;
  const store = await describeStore(config).catch(() => undefined);
  return {
    message: `the ${backend} store${store ? ` (${store.location})` : ""} is unavailable: ${error}`,
    fix: `check the [${backend}] table and data_dir in memory.toml, then run \`memory doctor\` again`,
  };
}

async function checkStore(context: CommandContext, report: DoctorReport): Promise<void> {
  let memory: Memory;
  let health: HealthReport;
  let files: MemoryFilesState | undefined;
  // Backends open lazily, so the store is really opened by its first operation: healthCheck.
  try {
    ({ memory } = await context.open("configured"));
    files = await inspectMemoryFiles(memory);
    health = await memory.healthCheck();
  } catch (error) {
    const backend = context.config().config.memory.backend;
    report.add(
      "backend",
      "fail",
      `cannot open the store: ${message(error)}`,
      MemoryError.hasCode(error, "STORE_NOT_WRITABLE")
        ? await writableFix(context)
        : `fix data_dir or the [${backend}] table in memory.toml, then run \`memory doctor\` again`,
    );
    return;
  }
  const configured = context.config().config.memory.backend;
  if (health.backend !== configured) {
    report.add(
      "backend",
      "fail",
      `${configured} is unavailable; running as ${health.backend}: ${String(health.details.reason ?? "")}`.trim(),
      `fix the store, or remove [${configured}].fallback_to_none from memory.toml to see the error`,
    );
    return;
  }
  const opened = `${memory.name} opened${health.entries === undefined ? "" : `, ${health.entries} entries`}${typeof health.details.schemaVersion === "number" ? `, schema v${health.details.schemaVersion}` : ""}`;
  if (health.storage?.writable === false) {
    // Reads still work, so the checks below still say something true about the store.
    report.add(
      "backend",
      "fail",
      `${opened}, but it cannot be written: ${health.storage.reason ?? "the backend refuses writes"}`,
      await writableFix(context),
    );
  } else if (!health.ok) {
    // The store does not answer: every later check would only repeat that (and suggest fixes,
    // like a reindex, that cannot work while it is down).
    const { message: problem, fix } = await describeOutage(context, health);
    report.add("backend", "fail", problem, fix);
    return;
  } else {
    report.add("backend", "ok", opened);
  }
  reportMemoryFiles(files, report);

  if (memory.capabilities.keywordSearch) {
    try {
      await memory.recall("doctor probe", { mode: "bm25", limit: 1, track: false });
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
  if (typeof health.details.iterativeScanError === "string") {
    report.add(
      "vector scan",
      "warn",
      health.details.iterativeScanError,
      "upgrade pgvector to 0.8 or later (ALTER EXTENSION vector UPDATE)",
    );
  }
  if (health.pendingEmbeddings > 0 && vector.status === "ok") {
    // With defer_embedding, a long-running memory (the server) embeds them in the background.
    report.add(
      "pending",
      "warn",
      `${health.pendingEmbeddings} entries wait for an embedding${health.details.embeddingWorker === undefined || health.details.embeddingWorker === "off" ? "" : " (a running server with defer_embedding embeds them in the background)"}`,
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

/**
 * The chat model behind remember, curate and `consolidate --files` (`chat_provider`): one tiny
 * real completion, so a wrong key or URL shows here and not in the middle of a curation.
 */
async function checkChatModel(settings: MemorySettings, report: DoctorReport): Promise<void> {
  let model: ChatModel | null;
  try {
    model = resolveChatModel(settings);
  } catch (error) {
    report.add("chat", "fail", message(error), "fix chat_provider in memory.toml");
    return;
  }
  if (!model) {
    report.add(
      "chat",
      "skip",
      "no chat_provider: memory remember, memory curate and consolidate --files need one",
    );
    return;
  }
  const started = performance.now();
  try {
    await model.complete([{ role: "user", content: "Reply with the word OK." }], { maxTokens: 5 });
    const elapsed = Math.round(performance.now() - started);
    report.add("chat", "ok", `${model.name} ${model.model} answered in ${elapsed} ms`);
  } catch (error) {
    report.add(
      "chat",
      "fail",
      `${model.name} ${model.model} failed: ${message(error)}`,
      `check chat_provider and chat_model in memory.toml and the API key (${CHAT_API_KEY_ENV} or the provider's variable)`,
    );
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
    await checkChatModel(context.config().config.memory, report);
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
