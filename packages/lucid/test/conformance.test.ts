import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FactoryContext, runConformanceSuite } from "@memory/testkit";
import { createLucidMemory, type LucidMemoryOptions } from "../src/index.js";
import { fakeLucid, tempDir } from "./helpers.js";

/**
 * The whole suite, three times: the external tool absent (the command does not exist), slow
 * (it never answers: every call ends at the timeouts) and present (it answers every recall with
 * a context block; its lines share no word with the suite's data, so the suite's expectations
 * about what recall returns still hold, while every recall with few local hits runs it).
 * Lucid decorates the SQLite driver, so it declares what SQLite does.
 */
const variants: [string, LucidMemoryOptions][] = [
  ["lucid (tool absent)", { command: join(tempDir(), "no-such-lucid") }],
  [
    "lucid (tool slow)",
    {
      ...fakeLucid({ FAKE_LUCID_MODE: "hang" }),
      recallTimeoutMs: 100,
      storeTimeoutMs: 100,
      syncRetries: 0,
      closeTimeoutMs: 50,
    },
  ],
  [
    "lucid (tool present)",
    {
      ...fakeLucid({
        FAKE_LUCID_ANSWER:
          "- [decision] Zorblat quuxification stays frobnicated\n- [bug] Wibblewobble flange regression",
      }),
      closeTimeoutMs: 5000,
      // Bounds a busy machine cannot race: every recall with few local hits really runs the tool.
      recallTimeoutMs: 60_000,
      storeTimeoutMs: 60_000,
    },
  ],
];

/** The factory context as the options of the wrapped SQLite store. */
function sqliteOf(path: string, { embedder, settings, now, embeddingJobs }: FactoryContext) {
  return {
    path,
    ...settings,
    ...(embedder ? { embedder } : {}),
    ...(now ? { now } : {}),
    ...(embeddingJobs
      ? {
          deferEmbedding: embeddingJobs.deferEmbedding,
          ...(embeddingJobs.batchSize === undefined
            ? {}
            : { embeddingBatchSize: embeddingJobs.batchSize }),
          ...(embeddingJobs.worker ? { embeddingWorker: embeddingJobs.worker } : {}),
        }
      : {}),
    logger: () => {},
  };
}

for (const [name, lucid] of variants) {
  const open = (path: string, context: FactoryContext) =>
    createLucidMemory({ ...lucid, logger: () => {}, sqlite: sqliteOf(path, context) });
  runConformanceSuite({
    name,
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
    create: async (context) => open(join(tempDir(), "brain.db"), context),
    createShared: async () => {
      const path = join(tempDir(), "brain.db");
      return {
        location: JSON.stringify({ path, lucid }),
        open: async (context) => open(path, context),
      };
    },
    childOpener: fileURLToPath(new URL("./fixtures/open-shared.ts", import.meta.url)),
  });
}
