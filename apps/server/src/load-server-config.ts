import { existsSync } from "node:fs";
import path from "node:path";
import type { MemoryConfig } from "@memory/api";
import { loadConfig } from "@memory/core";

export interface ServerConfig {
  config: MemoryConfig;
  /** Absolute path of the file read, if any. */
  file: string | undefined;
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
  // Relative paths in the file are resolved against its directory (as in the CLI) by loadConfig.
  return { config: loadConfig({ file: absolute, env }).config, file: absolute };
}
