import { fileURLToPath } from "node:url";
import { type FactoryContext, runConformanceSuite } from "@memory/testkit";
import { createSqliteMemory, type SqliteMemoryOptions } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

/** The factory context as SQLite options (the retrieval settings are top-level options). */
function optionsOf({ embedder, settings, now, embeddingJobs }: FactoryContext) {
  const options: Omit<SqliteMemoryOptions, "path"> = { ...settings, logger: () => {} };
  if (embedder) options.embedder = embedder;
  if (now) options.now = now;
  if (embeddingJobs) {
    options.deferEmbedding = embeddingJobs.deferEmbedding;
    if (embeddingJobs.batchSize !== undefined) options.embeddingBatchSize = embeddingJobs.batchSize;
    if (embeddingJobs.worker) options.embeddingWorker = embeddingJobs.worker;
  }
  return options;
}

runConformanceSuite({
  name: "sqlite",
  supports: [
    "vectorSearch",
    "cjkSearch",
    "sharedStore",
    "persistent",
    "deferredEmbedding",
    "multiProcess",
    "relations",
    "usage",
  ],
  create: async (context) => createSqliteMemory({ path: tempDbPath(), ...optionsOf(context) }),
  createShared: async () => {
    const path = tempDbPath();
    return {
      location: path,
      open: async (context) => createSqliteMemory({ path, ...optionsOf(context) }),
    };
  },
  childOpener: fileURLToPath(new URL("./fixtures/open-shared.ts", import.meta.url)),
});
