import { ConfigError, type MemoryDriver, type TextLanguage } from "@memory/api";
import { resolveRetrievalSettings } from "@memory/core";
import type { SqliteMemoryOptions } from "@memory/sqlite";

/**
 * Options of {@link createLucidMemory}. The local store is the authority for every operation;
 * the external `lucid` command only receives copies of stored entries and adds context to
 * recalls that found little locally.
 */
export interface LucidMemoryOptions {
  /**
   * Options of the local SQLite store this package creates (and closes). With `local`, only the
   * facade's part applies (embedder, `[memory]` settings, logger, clock).
   */
  sqlite?: SqliteMemoryOptions;
  /**
   * The local store's driver to decorate instead of SQLite's (any `MemoryDriver`); the memory
   * opens and closes it like its own.
   */
  local?: MemoryDriver;
  /** The external command. Default `lucid`. Run directly, never through a shell. */
  command?: string;
  /** Arguments put before every sub-command (e.g. `["fake-lucid.mjs"]` with `command: "node"`). Default none. */
  args?: string[];
  /** Argument template of a sync (see README, "Protocol"). Default `store --category {category} --key {key} -- {content}`. */
  storeArgs?: string[];
  /** Argument template of a recall. Default `context -- {query}`. */
  contextArgs?: string[];
  /** Environment variables added to the command's environment. */
  env?: Record<string, string>;
  /** `store_timeout_ms`: one sync attempt is killed after this. Default 800. */
  storeTimeoutMs?: number;
  /** `recall_timeout_ms`: the external recall is killed (and local results returned) after this. Default 500. */
  recallTimeoutMs?: number;
  /** `local_hit_threshold`: ask the external tool only when local recall found fewer results. Default 3. */
  localHitThreshold?: number;
  /** `cooldown_seconds`: after an external failure, recall leaves the tool alone this long. Default 15. */
  cooldownSeconds?: number;
  /** `sync_retries`: extra attempts of a failed sync (a missing command is not retried). Default 2. */
  syncRetries?: number;
  /** Delay before the first retry of a sync; doubles each retry. Default 200 ms. */
  syncRetryDelayMs?: number;
  /** Syncs waiting at most; beyond it the oldest waiting sync is dropped (counted). Default 1000. */
  syncQueueMax?: number;
  /** How long `close()` waits for pending syncs before dropping them. Default 2000 ms. */
  closeTimeoutMs?: number;
  /** Output of the external command above this many bytes is a failure. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Minimum score of external results; default the local store's `minScore` (0.3). */
  minScore?: number;
  /**
   * `text_language`: how external lines and the query are analysed when lines are scored.
   * Default the local store's (`sqlite.textLanguage`), else `english`.
   */
  textLanguage?: TextLanguage;
  /** Where warnings go (the tool became unavailable, syncs dropped). Default `console.warn`. */
  logger?: (message: string) => void;
  /** Clock (ms since the epoch) for the cooldown and external results' timestamps (tests). */
  now?: () => number;
}

export const DEFAULT_STORE_ARGS: readonly string[] = [
  "store",
  "--category",
  "{category}",
  "--key",
  "{key}",
  "--",
  "{content}",
];

export const DEFAULT_CONTEXT_ARGS: readonly string[] = ["context", "--", "{query}"];

export const LUCID_DEFAULTS = {
  command: "lucid",
  storeTimeoutMs: 800,
  recallTimeoutMs: 500,
  localHitThreshold: 3,
  cooldownSeconds: 15,
  syncRetries: 2,
  syncRetryDelayMs: 200,
  syncQueueMax: 1000,
  closeTimeoutMs: 2000,
  maxOutputBytes: 1024 * 1024,
} as const;

/** The options with every default applied. */
export interface ResolvedLucidOptions {
  command: string;
  args: readonly string[];
  storeArgs: readonly string[];
  contextArgs: readonly string[];
  env: Record<string, string>;
  storeTimeoutMs: number;
  recallTimeoutMs: number;
  localHitThreshold: number;
  cooldownMs: number;
  syncRetries: number;
  syncRetryDelayMs: number;
  syncQueueMax: number;
  closeTimeoutMs: number;
  maxOutputBytes: number;
  minScore: number;
  textLanguage: TextLanguage;
  logger: (message: string) => void;
  now: () => number;
}

function integer(name: string, value: number | undefined, fallback: number, min: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min) {
    throw new ConfigError(
      `Invalid lucid option ${name}: expected an integer >= ${min}, got ${String(value)}.`,
    );
  }
  return chosen;
}

function strings(name: string, value: unknown, fallback: readonly string[]): readonly string[] {
  if (value === undefined) return fallback;
  if (
    !Array.isArray(value) ||
    value.some((item) => typeof item !== "string" || item.includes("\u0000"))
  ) {
    throw new ConfigError(`Invalid lucid option ${name}: expected a list of strings without NUL.`);
  }
  return [...value];
}

export function resolveLucidOptions(options: LucidMemoryOptions): ResolvedLucidOptions {
  const command = options.command ?? LUCID_DEFAULTS.command;
  if (typeof command !== "string" || command === "" || command.includes("\u0000")) {
    throw new ConfigError(
      "Invalid lucid option command: expected a non-empty program name or path.",
    );
  }
  const cooldownSeconds = options.cooldownSeconds ?? LUCID_DEFAULTS.cooldownSeconds;
  if (!(Number.isFinite(cooldownSeconds) && cooldownSeconds >= 0)) {
    throw new ConfigError(
      `Invalid lucid option cooldownSeconds: expected a number >= 0, got ${cooldownSeconds}.`,
    );
  }
  const minScore = options.minScore ?? resolveRetrievalSettings(options.sqlite ?? {}).minScore;
  if (!(Number.isFinite(minScore) && minScore >= 0 && minScore <= 1)) {
    throw new ConfigError(`Invalid lucid option minScore: expected 0..1, got ${minScore}.`);
  }
  const textLanguage =
    options.textLanguage ?? resolveRetrievalSettings(options.sqlite ?? {}).textLanguage;
  if (textLanguage !== "english" && textLanguage !== "none") {
    throw new ConfigError(
      `Invalid lucid option textLanguage: expected "english" or "none", got ${JSON.stringify(textLanguage)}.`,
    );
  }
  return {
    command,
    textLanguage,
    args: strings("args", options.args, []),
    storeArgs: strings("storeArgs", options.storeArgs, DEFAULT_STORE_ARGS),
    contextArgs: strings("contextArgs", options.contextArgs, DEFAULT_CONTEXT_ARGS),
    env: { ...(options.env ?? {}) },
    storeTimeoutMs: integer(
      "storeTimeoutMs",
      options.storeTimeoutMs,
      LUCID_DEFAULTS.storeTimeoutMs,
      1,
    ),
    recallTimeoutMs: integer(
      "recallTimeoutMs",
      options.recallTimeoutMs,
      LUCID_DEFAULTS.recallTimeoutMs,
      1,
    ),
    localHitThreshold: integer(
      "localHitThreshold",
      options.localHitThreshold,
      LUCID_DEFAULTS.localHitThreshold,
      0,
    ),
    cooldownMs: cooldownSeconds * 1000,
    syncRetries: integer("syncRetries", options.syncRetries, LUCID_DEFAULTS.syncRetries, 0),
    syncRetryDelayMs: integer(
      "syncRetryDelayMs",
      options.syncRetryDelayMs,
      LUCID_DEFAULTS.syncRetryDelayMs,
      0,
    ),
    syncQueueMax: integer("syncQueueMax", options.syncQueueMax, LUCID_DEFAULTS.syncQueueMax, 1),
    closeTimeoutMs: integer(
      "closeTimeoutMs",
      options.closeTimeoutMs,
      LUCID_DEFAULTS.closeTimeoutMs,
      0,
    ),
    maxOutputBytes: integer(
      "maxOutputBytes",
      options.maxOutputBytes,
      LUCID_DEFAULTS.maxOutputBytes,
      1,
    ),
    minScore,
    logger: options.logger ?? ((message: string) => console.warn(message)),
    now: options.now ?? Date.now,
  };
}
