import type { MemorySettings, RetrievalSettings } from "@memory/api";
import { createInMemoryMemory, InMemoryStore, runConformanceSuite } from "../src/index.js";

/** Library option names (camelCase, as groups pass them) to memory.toml names (snake_case). */
function memoryToml(settings: Partial<RetrievalSettings> = {}): Partial<MemorySettings> {
  return Object.fromEntries(
    Object.entries(settings).map(([name, value]) => [
      name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      value,
    ]),
  );
}

// The reference backend passing every group is what proves the suite itself.
runConformanceSuite({
  name: "in-memory reference",
  create: async ({ embedder, settings, now }) =>
    createInMemoryMemory({
      ...(embedder ? { embedder } : {}),
      ...(now ? { now } : {}),
      settings: memoryToml(settings),
    }),
  createShared: async () => {
    const store = new InMemoryStore();
    return {
      open: async ({ embedder, settings, now }) =>
        createInMemoryMemory({
          store,
          ...(now ? { now } : {}),
          ...(embedder ? { embedder } : {}),
          settings: memoryToml(settings),
        }),
    };
  },
});
