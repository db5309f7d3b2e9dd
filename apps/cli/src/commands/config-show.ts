import { MEMORY_SETTING_KEYS } from "@memory/api";
import type { CommandHandler } from "../cli/lazy-action.js";
import { maskTable, maskValue } from "../config/mask-secrets.js";
import { unhonouredSettingWarnings } from "../store/open-memory.js";

const ORIGIN: Record<string, string> = {
  flag: "--config",
  cwd: "./memory.toml",
  user: "user config directory",
  none: "no file: defaults and environment only",
};

const toml = (value: unknown): string => (value === undefined ? "(unset)" : JSON.stringify(value));

/**
 * `memory config show`: every `[memory]` key with its value and source; other tables as read;
 * a warning for each set key the backend does not honour.
 */
const configShow: CommandHandler = async (context) => {
  const { config, sources, location } = context.config();
  const settings = config.memory as Record<string, unknown>;
  const memory = Object.fromEntries(
    MEMORY_SETTING_KEYS.map((key) => {
      const source = sources[key] === "env" ? `env MEMORY_${key.toUpperCase()}` : sources[key];
      return [key, { value: maskValue(key, settings[key]), source }];
    }),
  );
  const tables = maskTable(
    Object.fromEntries(Object.entries(config).filter(([name]) => name !== "memory")),
  );
  const warnings = await unhonouredSettingWarnings(config);
  context.output.result(
    { file: location.file ?? null, origin: location.origin, memory, tables, warnings },
    () => {
      const width = Math.max(...MEMORY_SETTING_KEYS.map((key) => key.length));
      const lines = [
        `# config file: ${location.file ?? "(none)"} (${ORIGIN[location.origin]})`,
        ...warnings.map((warning) => context.output.style.yellow(`# warning: ${warning}`)),
        "[memory]",
        ...Object.entries(memory).map(
          ([key, { value, source }]) =>
            `${`${key} = ${toml(value)}`.padEnd(width + 30)} ${context.output.style.dim(`# ${source}`)}`,
        ),
      ];
      for (const [name, table] of Object.entries(tables)) {
        lines.push("", `[${name}]`);
        if (table && typeof table === "object" && !Array.isArray(table)) {
          for (const [key, value] of Object.entries(table)) lines.push(`${key} = ${toml(value)}`);
        } else {
          lines.push(toml(table));
        }
      }
      return lines;
    },
  );
};

export default configShow;
