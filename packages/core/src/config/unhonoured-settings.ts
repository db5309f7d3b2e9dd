import type { MemoryConfig, UnhonouredSettings } from "@memory/api";
import { loadBackend, type ModuleLoader } from "./backend-module.js";
import { defaultConfig } from "./load-config.js";

/**
 * One warning per `[memory]` key the configured backend declares it does not honour
 * (`unhonouredSettings`) and that is set: its value differs from the default, so someone chose
 * it (an explicit default changes nothing and is not worth a word).
 */
export function unhonouredSettingWarnings(
  config: MemoryConfig,
  unhonoured: UnhonouredSettings | undefined,
): string[] {
  if (!unhonoured) return [];
  const defaults = defaultConfig().memory as Record<string, unknown>;
  const settings = config.memory as Record<string, unknown>;
  return Object.entries(unhonoured)
    .filter(([key]) => settings[key] !== undefined && settings[key] !== defaults[key])
    .map(
      ([key, why]) =>
        `[memory].${key} = ${JSON.stringify(settings[key])} has no effect with backend = "${config.memory.backend}": ${why}. Remove it, or choose a backend that honours it (docs/configuration.md).`,
    );
}

/** `unhonouredSettingWarnings` for the configured backend, loading its package; none for `none`. */
export async function configuredUnhonouredSettingWarnings(
  config: MemoryConfig,
  options: { loadModule?: ModuleLoader } = {},
): Promise<string[]> {
  if (config.memory.backend === "none") return [];
  const { backend } = await loadBackend(config, options.loadModule);
  return unhonouredSettingWarnings(config, backend.unhonouredSettings);
}
