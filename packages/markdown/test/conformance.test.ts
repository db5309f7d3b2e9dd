import { runConformanceSuite } from "@memory/testkit";
import { createMarkdownMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

/**
 * The whole suite three times: with the derived SQLite index (the default), without it, and with
 * the index and the watcher (operations then re-read the tree only when the watcher or another
 * instance of the process says it changed).
 */
for (const [index, watch] of [
  [true, false],
  [false, false],
  [true, true],
] as const) {
  runConformanceSuite({
    name: `markdown (${index ? "index" : "no index"}${watch ? ", watcher" : ""})`,
    create: async ({ embedder, settings, now }) =>
      createMarkdownMemory({
        root: tempDir(),
        index,
        watch,
        ...settings,
        ...(embedder ? { embedder } : {}),
        ...(now ? { now } : {}),
        logger: () => {},
      }),
    createShared: async () => {
      const root = tempDir();
      return {
        open: async ({ embedder, settings, now }) =>
          createMarkdownMemory({
            root,
            index,
            watch,
            ...settings,
            ...(embedder ? { embedder } : {}),
            ...(now ? { now } : {}),
            logger: () => {},
          }),
      };
    },
  });
}
