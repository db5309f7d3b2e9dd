import { existsSync } from "node:fs";
import path from "node:path";
import { type LoadedConfig, loadConfig, type MemoryConfig } from "@memory/api";

export interface ServerConfig {
  config: MemoryConfig;
  /** Absolute path of the file read, if any. */
  file: string | undefined;
}

const PATH_KEYS = ["data_dir", "embedding_model_dir", "snapshot_path"] as const;

/**
 * Relative paths written in a file are relative to that file (as in the `memory` CLI), so the
 * server opens the same store whatever the working directory.
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

/**
 * Finds and loads the configuration: `file` (must exist), else `MEMORY_CONFIG`, else
 * `./memory.toml`, else defaults + `MEMORY_*` variables.
 */
export function loadServerConfig(
  file: string | undefined,
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): ServerConfig {
  let chosen = file ?? env.MEMORY_CONFIG;
  if (chosen === undefined && existsSync(path.join(cwd, "memory.toml"))) chosen = "memory.toml";
  if (chosen === undefined) return { config: loadConfig({ env }).config, file: undefined };
  const absolute = path.resolve(cwd, chosen);
  const loaded = loadConfig({ file: absolute, env });
  return { config: anchorPaths(loaded, path.dirname(absolute)), file: absolute };
}
