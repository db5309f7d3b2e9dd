import { runConformanceSuite } from "@memory/testkit";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

runConformanceSuite({
  name: "sqlite",
  create: async ({ embedder, settings }) =>
    createSqliteMemory({
      path: tempDbPath(),
      ...settings,
      ...(embedder ? { embedder } : {}),
      logger: () => {},
    }),
  createShared: async () => {
    const path = tempDbPath();
    return {
      open: async ({ embedder }) =>
        createSqliteMemory({ path, ...(embedder ? { embedder } : {}), logger: () => {} }),
    };
  },
});
