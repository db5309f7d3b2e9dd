import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** Which file configures this run, and why it was picked. */
export interface ConfigLocation {
  /** Absolute path, or undefined when no file was found (defaults + environment only). */
  file: string | undefined;
  /** `--config`, `./memory.toml`, `user config dir`, or `none`. */
  origin: "flag" | "cwd" | "user" | "none";
}

export const CONFIG_FILE_NAME = "memory.toml";

/** `$XDG_CONFIG_HOME/memory/memory.toml`, else `~/.config/memory/memory.toml`. */
export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(homedir(), ".config");
  return path.join(base, "memory", CONFIG_FILE_NAME);
}

/**
 * Resolution order: `--config <file>` (must exist; a typo must not silently fall through to
 * another store), then `./memory.toml`, then the user config directory. No file is fine:
 * defaults and `MEMORY_*` variables still apply.
 */
export function findConfigFile(
  flag: string | undefined,
  cwd = process.cwd(),
  env = process.env,
): ConfigLocation {
  if (flag !== undefined) return { file: path.resolve(cwd, flag), origin: "flag" };
  const local = path.join(cwd, CONFIG_FILE_NAME);
  if (existsSync(local)) return { file: local, origin: "cwd" };
  const user = userConfigFile(env);
  if (existsSync(user)) return { file: user, origin: "user" };
  return { file: undefined, origin: "none" };
}
