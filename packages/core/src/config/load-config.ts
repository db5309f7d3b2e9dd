import { readFileSync } from "node:fs";
import path from "node:path";
import {
  ConfigError,
  MEMORY_SETTING_KEYS,
  type MemoryConfig,
  type MemorySettings,
  memorySettingsSchema,
} from "@memory/api";
import { parse as parseToml } from "smol-toml";
import { lookupTable } from "../algorithms/lookup-table.js";
import {
  CONFIG_TABLE_KEYS,
  type ConfigTableName,
  unknownKeyProblems,
  unknownTableProblems,
} from "./config-tables.js";
import { describeUnknownKey } from "./key-suggestions.js";

/** Where a setting's value came from; `memory config show` prints it. */
export type SettingSource = "default" | "file" | "env" | "override";

export interface LoadConfigOptions {
  /** Path of a `memory.toml`; omitted -> defaults and environment only. */
  file?: string;
  /** TOML text instead of a file (tests, embedding the config). */
  text?: string;
  /** Environment to read `MEMORY_*` overrides from; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Programmatic overrides of `[memory]` keys; they win over everything. */
  overrides?: Partial<MemorySettings>;
}

export interface LoadedConfig {
  config: MemoryConfig;
  /** Source of every `[memory]` key. */
  sources: Record<keyof MemorySettings, SettingSource>;
  /** The file read, if any. */
  file?: string;
}

const BOOLEAN_WORDS = lookupTable<boolean>({
  true: true,
  "1": true,
  yes: true,
  on: true,
  false: false,
  "0": false,
  no: false,
  off: false,
});

/** Converts an environment string to the type the schema expects for `key`. */
function fromEnv(key: keyof MemorySettings, raw: string): unknown {
  const field = memorySettingsSchema.shape[key];
  const probe = field.safeParse(raw);
  if (probe.success) return probe.data;
  const lower = raw.trim().toLowerCase();
  if (lower in BOOLEAN_WORDS && field.safeParse(BOOLEAN_WORDS[lower]).success)
    return BOOLEAN_WORDS[lower];
  const number = Number(raw);
  if (raw.trim() !== "" && !Number.isNaN(number)) return number;
  return raw;
}

function describe(path: PropertyKey[], sources: Record<string, SettingSource>): string {
  const key = String(path[0] ?? "");
  const origin = sources[key] === "env" ? ` (from MEMORY_${key.toUpperCase()})` : "";
  return `[memory].${path.map(String).join(".")}${origin}`;
}

/**
 * Loads and validates a configuration: schema defaults, then the file's `[memory]` table, then
 * `MEMORY_*` environment variables, then `overrides`. An invalid value is a `ConfigError` that
 * names the key, where it came from and the allowed values; an unknown key of any table, or an
 * unknown table, is an error too (a typo would otherwise be silently ignored) that names its
 * line and the closest known name (`CONFIG_TABLE_KEYS`).
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  let document: Record<string, unknown> = {};
  const text = options.text ?? (options.file ? readConfigFile(options.file) : undefined);
  if (text !== undefined) {
    try {
      document = parseToml(text) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(
        `${options.file ?? "memory.toml"} is not valid TOML: ${(error as Error).message.split("\n")[0]}. Fix the syntax (see docs/configuration.md).`,
        { cause: error },
      );
    }
  }
  const fileTable = document.memory ?? {};
  if (typeof fileTable !== "object" || fileTable === null || Array.isArray(fileTable)) {
    throw new ConfigError(`${options.file ?? "memory.toml"}: "memory" must be a table ([memory]).`);
  }
  const raw: Record<string, unknown> = { ...(fileTable as Record<string, unknown>) };
  const sources = Object.fromEntries(
    MEMORY_SETTING_KEYS.map((key) => [key, key in raw ? "file" : "default"]),
  ) as Record<string, SettingSource>;
  const env = options.env ?? process.env;
  for (const key of MEMORY_SETTING_KEYS) {
    const value = env[`MEMORY_${key.toUpperCase()}`];
    if (value === undefined || value === "") continue;
    raw[key] = fromEnv(key, value);
    sources[key] = "env";
  }
  for (const [key, value] of Object.entries(options.overrides ?? {})) {
    if (value === undefined) continue;
    raw[key] = value;
    sources[key] = "override";
  }
  const source = {
    ...(options.file ? { file: options.file } : {}),
    ...(text ? { text } : {}),
  };
  // Every problem of the file at once: [memory]'s first, then the other tables'.
  const tableProblems = otherTableProblems(document, source);
  const parsed = memorySettingsSchema.safeParse(raw);
  if (!parsed.success || tableProblems.length > 0) {
    const memoryProblems = parsed.success
      ? []
      : parsed.error.issues.map((issue) => {
          if (issue.code === "unrecognized_keys") {
            // One line per key with the closest known key(s), not the list of every allowed key.
            return issue.keys
              .map((key) => describeUnknownKey("memory", key, MEMORY_SETTING_KEYS, source))
              .join("; ");
          }
          return `${describe(issue.path, sources)}: ${issue.message}`;
        });
    const problems = [...memoryProblems, ...tableProblems];
    throw new ConfigError(
      `Invalid configuration${options.file ? ` in ${options.file}` : ""}: ${problems.join("; ")}.`,
      { details: { problems, allowedKeys: [...MEMORY_SETTING_KEYS] } },
    );
  }
  const config: MemoryConfig = { ...document, memory: parsed.data };
  if (options.file) anchorRelativePaths(config, sources, path.dirname(path.resolve(options.file)));
  const loaded: LoadedConfig = {
    config,
    sources: sources as Record<keyof MemorySettings, SettingSource>,
  };
  if (options.file) loaded.file = options.file;
  return loaded;
}

/**
 * Unknown top-level tables, and unknown keys of every table but `[memory]` (its schema reports
 * those, with the environment's keys): a typo must not silently open the default store.
 */
function otherTableProblems(
  document: Record<string, unknown>,
  source: { file?: string; text?: string },
): string[] {
  const problems = unknownTableProblems(document, source);
  for (const name of Object.keys(CONFIG_TABLE_KEYS) as ConfigTableName[]) {
    const table = document[name];
    if (name === "memory" || typeof table !== "object" || table === null || Array.isArray(table))
      continue;
    problems.push(...unknownKeyProblems(name, table as Record<string, unknown>, source));
  }
  return problems;
}

function readConfigFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(
      `Cannot read the configuration file ${file}: ${(error as Error).message}. Pass an existing file or run \`memory init\`.`,
      {
        cause: error,
      },
    );
  }
}

/** Default settings (what an empty `memory.toml` gives). */
export function defaultConfig(): MemoryConfig {
  return loadConfig({ env: {} }).config;
}

// Keys that name files or directories: `path`, `dir`, and any `*_path` / `*_dir`.
const PATH_KEY = /^(path|dir|.+_path|.+_dir)$/;

/**
 * Relative paths written in a file are relative to that file, so `--config ~/proj/memory.toml`
 * opens the same store from any working directory. Values from the environment or defaults
 * stay relative to the working directory, like any other command-line path. Applies to the
 * `[memory]` table and to every other table's path-like keys (e.g. `[sqlite].path`).
 */
function anchorRelativePaths(
  config: MemoryConfig,
  sources: Record<string, SettingSource>,
  baseDir: string,
): void {
  const anchor = (value: unknown) =>
    typeof value === "string" && value !== ":memory:" && value !== "" && !path.isAbsolute(value)
      ? path.resolve(baseDir, value)
      : value;
  const memory = config.memory as unknown as Record<string, unknown>;
  for (const key of Object.keys(memory)) {
    if (PATH_KEY.test(key) && sources[key] === "file") memory[key] = anchor(memory[key]);
  }
  for (const [name, table] of Object.entries(config)) {
    if (name === "memory" || typeof table !== "object" || table === null || Array.isArray(table)) {
      continue;
    }
    const copy: Record<string, unknown> = { ...(table as Record<string, unknown>) };
    for (const key of Object.keys(copy)) if (PATH_KEY.test(key)) copy[key] = anchor(copy[key]);
    config[name] = copy;
  }
}
