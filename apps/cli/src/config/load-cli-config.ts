import { type LoadedConfig, loadConfig } from "@memory/core";
import { type ConfigLocation, findConfigFile } from "./find-config-file.js";

/** A loaded configuration plus where its file came from. */
export interface CliConfig extends LoadedConfig {
  location: ConfigLocation;
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
  // Relative paths in the file are resolved against its directory by loadConfig itself.
  const loaded = loadConfig(location.file ? { file: location.file, env } : { env });
  return { ...loaded, location };
}
