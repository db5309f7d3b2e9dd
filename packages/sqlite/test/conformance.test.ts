import { runConformanceSuite } from "@memory/testkit";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

runConformanceSuite({
  name: "sqlite",
  create: async ({ embedder, settings, now }) =>
    createSqliteMemory({
      path: tempDbPath(),
      ...settings,
      ...(now ? { now } : {}),
      ...(embedder ? { embedder } : {}),
      logger: () => {},
    }),
  createShared: async () => {
    const path = tempDbPath();
    return {
      open: async ({ embedder, settings, now }) =>
        createSqliteMemory({
          path,
          ...settings,
          ...(embedder ? { embedder } : {}),
          ...(now ? { now } : {}),
          logger: () => {},
        }),
    };
  },
});
