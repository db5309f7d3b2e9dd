import { fileURLToPath } from "node:url";
import { type ConformanceFeature, type FactoryContext, runConformanceSuite } from "@memory/testkit";
import { createMarkdownMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

/**
 * The whole suite three times: with the derived SQLite index (the default), without it, and with
 * the index and the watcher (operations then re-read the tree only when the watcher or another
 * instance of the process says it changed). Without the index there are no vectors, so that
 * variant does not declare vector search. Markdown embeds inline only (no deferred embedding).
 */
for (const [index, watch] of [
  [true, false],
  [false, false],
  [true, true],
] as const) {
  const open = (root: string, { embedder, settings, now }: FactoryContext) =>
    createMarkdownMemory({
      root,
      index,
      watch,
      ...settings,
      ...(embedder ? { embedder } : {}),
      ...(now ? { now } : {}),
      logger: () => {},
    });
  const supports: ConformanceFeature[] = [
    "cjkSearch",
    "sharedStore",
    "persistent",
    "multiProcess",
    "relations",
    "usage",
  ];
  runConformanceSuite({
    name: `markdown (${index ? "index" : "no index"}${watch ? ", watcher" : ""})`,
    supports: index ? ["vectorSearch", ...supports] : supports,
    create: async (context) => open(tempDir(), context),
    createShared: async () => {
      const root = tempDir();
      return {
        location: JSON.stringify({ root, index, watch }),
        open: async (context) => open(root, context),
      };
    },
    childOpener: fileURLToPath(new URL("./fixtures/open-shared.ts", import.meta.url)),
  });
}
