import { createInMemoryMemory, InMemoryStore, runConformanceSuite } from "../src/index.js";
import { memoryToml } from "./memory-toml.js";

// The reference backend passing every group is what proves the suite itself.
runConformanceSuite({
  name: "in-memory reference",
  // Not persistent, no background embedding worker, and one process only (an InMemoryStore
  // shared between instances stands for one store opened twice).
  supports: ["vectorSearch", "cjkSearch", "sharedStore", "relations", "usage"],
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
