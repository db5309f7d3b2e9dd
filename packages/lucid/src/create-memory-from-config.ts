import {
  type BackendContext,
  ConfigError,
  type Memory,
  type MemoryConfig,
  type StoreDescription,
} from "@memory/api";
import { assertKnownTableKeys } from "@memory/core";
import {
  describeStore as describeSqliteStore,
  doctorHints as sqliteDoctorHints,
  sqliteOptionsFromConfig,
} from "@memory/sqlite";
import { createLucidMemory } from "./lucid-memory.js";
import type { LucidMemoryOptions } from "./lucid-options.js";

const INTEGER_KEYS = {
  store_timeout_ms: "storeTimeoutMs",
  recall_timeout_ms: "recallTimeoutMs",
  local_hit_threshold: "localHitThreshold",
  sync_retries: "syncRetries",
} as const;

const STRING_LIST_KEYS = {
  args: "args",
  store_args: "storeArgs",
  context_args: "contextArgs",
} as const;

/** The options of the optional `[lucid]` table of memory.toml (README, "Configuration"). */
export function lucidOptionsFromConfig(config: MemoryConfig): LucidMemoryOptions {
  const table = config.lucid;
  if (table === undefined) return {};
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    throw new ConfigError("[lucid] must be a table.");
  }
  const values = table as Record<string, unknown>;
  assertKnownTableKeys("lucid", values);
  const options: LucidMemoryOptions = {};
  if (values.command !== undefined) {
    if (typeof values.command !== "string" || values.command === "") {
      throw new ConfigError("[lucid].command must be a non-empty string (the program to run).");
    }
    options.command = values.command;
  }
  for (const [key, name] of Object.entries(INTEGER_KEYS)) {
    const value = values[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new ConfigError(`[lucid].${key} must be an integer >= 0.`);
    }
    options[name] = value;
  }
  if (values.cooldown_seconds !== undefined) {
    const value = values.cooldown_seconds;
    if (typeof value !== "number" || !(value >= 0)) {
      throw new ConfigError("[lucid].cooldown_seconds must be a number >= 0.");
    }
    options.cooldownSeconds = value;
  }
  for (const [key, name] of Object.entries(STRING_LIST_KEYS)) {
    const value = values[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
      throw new ConfigError(`[lucid].${key} must be a list of strings.`);
    }
    options[name] = value as string[];
  }
  return options;
}

/** Entry point for `createMemory` (`backend = "lucid"`): the local SQLite store of the configuration, bridged to `lucid`. */
export function createMemoryFromConfig(config: MemoryConfig, context: BackendContext = {}): Memory {
  return createLucidMemory({
    ...lucidOptionsFromConfig(config),
    ...(context.log ? { logger: context.log } : {}),
    sqlite: sqliteOptionsFromConfig(config, context),
  });
}

/** The local SQLite store `config` opens (`BackendModule.describeStore`), identity prefixed `lucid:`. */
export function describeStore(config: MemoryConfig): StoreDescription {
  lucidOptionsFromConfig(config);
  const local = describeSqliteStore(config);
  return { identity: `lucid:${local.identity}`, location: local.location };
}

/** `BackendModule.doctorHints`: the local store is SQLite's, and so is the advice. */
export const doctorHints = sqliteDoctorHints;
