import type { MemorySettings, RetrievalSettings } from "@memory/api";

/** Library option names (camelCase, as groups pass them) to memory.toml names (snake_case). */
export function memoryToml(settings: Partial<RetrievalSettings> = {}): Partial<MemorySettings> {
  return Object.fromEntries(
    Object.entries(settings).map(([name, value]) => [
      name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      value,
    ]),
  );
}
