import { createInMemoryMemory, InMemoryStore, runConformanceSuite } from "../src/index.js";

// The reference backend passing every group is what proves the suite itself.
runConformanceSuite({
  name: "in-memory reference",
  create: async ({ embedder }) => createInMemoryMemory(embedder ? { embedder } : {}),
  createShared: async () => {
    const store = new InMemoryStore();
    return {
      open: async ({ embedder }) =>
        createInMemoryMemory(embedder ? { store, embedder } : { store }),
    };
  },
});
