import { runConformanceSuite } from "@memory/testkit";
import { afterAll } from "vitest";
import { createPostgresMemory } from "../src/index.js";
import { schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("conf");
afterAll(() => schemas.dropAll());

runConformanceSuite({
  name: "postgres",
  // Each instance gets its own schema: isolated, and dropped after the file.
  create: async ({ embedder, settings, now }) =>
    createPostgresMemory({
      connectionString: TEST_URL,
      schema: schemas.next(),
      maxConnections: 4,
      embedder,
      ...settings,
      ...(now ? { now } : {}),
    }),
  // Every open is an independent instance with its own pool, over one schema.
  createShared: async () => {
    const schema = schemas.next();
    return {
      open: async ({ embedder, settings, now }) =>
        createPostgresMemory({
          connectionString: TEST_URL,
          schema,
          maxConnections: 4,
          embedder,
          ...settings,
          ...(now ? { now } : {}),
        }),
    };
  },
});
