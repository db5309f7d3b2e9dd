import { existsSync } from "node:fs";
import path from "node:path";
import { MemoryError } from "@memory/api";
import { CommandError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { findConfigFile } from "../config/find-config-file.js";
import { loadCliConfigFile } from "../config/load-cli-config.js";
import { unhonouredSettingWarnings } from "../store/open-memory.js";

/**
 * `memory config validate [file]`: parses the file and checks `[memory]` against the schema
 * and every other table's keys (unknown keys, tables and bad values are named), and warns about
 * set `[memory]` keys the backend does not honour. Environment overrides are ignored, so the
 * verdict is about the file itself.
 */
const configValidate: CommandHandler = async (context, args) => {
  const [argument] = args as [string | undefined];
  const location = argument
    ? { file: path.resolve(argument), origin: "flag" as const }
    : findConfigFile(context.globals.config);
  if (!location.file) {
    throw new CommandError(
      "No configuration file found (./memory.toml or the user config directory): pass a file, or run `memory init`.",
      EXIT_CODES.failure,
    );
  }
  if (!existsSync(location.file)) {
    throw new CommandError(
      `${location.file} does not exist: pass an existing file, or run \`memory init\`.`,
      EXIT_CODES.failure,
    );
  }
  try {
    const loaded = loadCliConfigFile(location, {});
    const tables = Object.keys(loaded.config).filter((name) => name !== "memory");
    // Valid, but a key the backend ignores is worth saying: someone expects it to work.
    const warnings = await unhonouredSettingWarnings(loaded.config);
    context.output.result(
      { valid: true, file: location.file, backend: loaded.config.memory.backend, tables, warnings },
      () => [
        `${location.file} is valid (backend ${loaded.config.memory.backend})`,
        ...warnings.map((warning) => context.output.style.yellow(`warning: ${warning}`)),
      ],
    );
  } catch (error) {
    if (!MemoryError.hasCode(error, "CONFIG")) throw error;
    const problems = (error.details?.problems as string[] | undefined) ?? [error.message];
    throw new CommandError(error.message, EXIT_CODES.failure, {
      valid: false,
      file: location.file,
      problems,
    });
  }
};

export default configValidate;
