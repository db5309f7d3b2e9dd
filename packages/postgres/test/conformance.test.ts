import { fileURLToPath } from "node:url";
import { type FactoryContext, runConformanceSuite } from "@memory/testkit";
import { afterAll } from "vitest";
import { createPostgresMemory, type PostgresMemoryOptions } from "../src/index.js";
import { schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("conf");
afterAll(() => schemas.dropAll());

/** The factory context as PostgreSQL options, over one schema. */
function optionsOf(
  schema: string,
  { embedder, settings, now, embeddingJobs }: FactoryContext,
): PostgresMemoryOptions {
  const options: PostgresMemoryOptions = {
    connectionString: TEST_URL,
    schema,
    maxConnections: 4,
    embedder,
    ...settings,
  };
  if (now) options.now = now;
  if (embeddingJobs) {
    options.deferEmbedding = embeddingJobs.deferEmbedding;
    options.embeddingWorker = {
      ...embeddingJobs.worker,
      ...(embeddingJobs.batchSize === undefined ? {} : { batchSize: embeddingJobs.batchSize }),
    };
  }
  return options;
}

runConformanceSuite({
  name: "postgres",
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
  // Each instance gets its own schema: isolated, and dropped after the file.
  create: async (context) => createPostgresMemory(optionsOf(schemas.next(), context)),
  // Every open is an independent instance with its own pool, over one schema.
  createShared: async () => {
    const schema = schemas.next();
    return {
      location: JSON.stringify({ url: TEST_URL, schema }),
      open: async (context) => createPostgresMemory(optionsOf(schema, context)),
    };
  },
  childOpener: fileURLToPath(new URL("./fixtures/open-shared.ts", import.meta.url)),
});
