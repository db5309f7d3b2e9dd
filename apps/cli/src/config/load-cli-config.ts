import path from "node:path";
import { type LoadedConfig, loadConfig, type MemoryConfig } from "@memory/api";
import { type ConfigLocation, findConfigFile } from "./find-config-file.js";

/** A loaded configuration plus where its file came from. */
export interface CliConfig extends LoadedConfig {
  location: ConfigLocation;
}

// Keys of `[memory]` that name files or directories.
const PATH_KEYS = ["data_dir", "embedding_model_dir", "snapshot_path"] as const;

/**
 * Relative paths written in a file are relative to that file, so `memory --config
 * ~/proj/memory.toml` opens the same store from any directory. Values from the environment or
 * defaults stay relative to the working directory, like any other command-line path.
 */
function anchorPaths(loaded: LoadedConfig, baseDir: string): MemoryConfig {
  const memory: Record<string, unknown> = { ...loaded.config.memory };
  for (const key of PATH_KEYS) {
    const value = memory[key];
    if (typeof value === "string" && loaded.sources[key] === "file" && !path.isAbsolute(value)) {
      memory[key] = path.resolve(baseDir, value);
    }
  }
  const config: MemoryConfig = { ...loaded.config, memory: memory as MemoryConfig["memory"] };
  const sqlite = config.sqlite;
  if (sqlite && typeof sqlite === "object" && !Array.isArray(sqlite)) {
    const table = sqlite as Record<string, unknown>;
    if (
      typeof table.path === "string" &&
      table.path !== ":memory:" &&
      !path.isAbsolute(table.path)
    ) {
      config.sqlite = { ...table, path: path.resolve(baseDir, table.path) };
    }
  }
  return config;
}

/** Finds and loads the configuration for this run (`--config`, ./memory.toml, user dir, env). */
export function loadCliConfig(
  configFlag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): CliConfig {
  const location = findConfigFile(configFlag, process.cwd(), env);
  return loadCliConfigFile(location, env);
}

/** Loads a given location (used by `migrate --from/--to` and `config validate <file>`). */
export function loadCliConfigFile(
  location: ConfigLocation,
  env: NodeJS.ProcessEnv = process.env,
): CliConfig {
  const loaded = loadConfig(location.file ? { file: location.file, env } : { env });
  const config = location.file ? anchorPaths(loaded, path.dirname(location.file)) : loaded.config;
  return { ...loaded, config, location };
}
