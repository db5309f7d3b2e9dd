import { createTestEmbedder } from "@memory/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresMemory, type PostgresMemoryOptions } from "../src/index.js";
import { checkIterativeScan } from "../src/recall/vector-stage.js";
import type { VectorState } from "../src/vector-store.js";
import { schemaRegistry, TEST_URL } from "./helpers.js";

type Options = Partial<PostgresMemoryOptions>;

const schemas = schemaRegistry("vhealth");
const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const memory of opened.splice(0)) await memory.close().catch(() => {});
  await schemas.dropAll();
});

const open = (schema: string, options: Options) => {
  const memory = createPostgresMemory({ connectionString: TEST_URL, schema, ...options });
  opened.push(memory);
  return memory;
};

// What vector health reports on PostgreSQL. The deferred-embedding behaviour every backend shares
// (store before the vector, batches, backoff, resume after a restart, two instances draining) is
// the testkit's `deferredEmbedding` conformance group.

describe("postgres: an inline embedding failure", () => {
  it("reports an inline embedding failure (deferEmbedding off) in healthCheck", async () => {
    const memory = open(schemas.next(), {
      embedder: createTestEmbedder({ dimensions: 16, fail: true }),
    });
    await memory.store({ key: "k", content: "kept without a vector" });
    const health = await memory.healthCheck();
    expect(health.pendingEmbeddings).toBe(1);
    expect(health.details.lastEmbeddingError).toMatch(/fail/i);
    await memory.close();
  });
});

describe("postgres: hnsw.iterative_scan", () => {
  it("records why the setting could not be made (pgvector older than 0.8)", async () => {
    const state = { status: "ok", vectorType: "vector", distance: "<=>" } as VectorState;
    const client = {
      query: async (text: string) => {
        if (text.startsWith("SELECT")) return { rows: [{ value: null }] };
        throw new Error('unrecognized configuration parameter "hnsw.iterative_scan"');
      },
    } as unknown as Parameters<typeof checkIterativeScan>[0];
    await checkIterativeScan(client, state);
    expect(state.iterativeScanChecked).toBe(true);
    expect(state.iterativeScanError).toMatch(/unrecognized configuration parameter/);
  });

  it("shows no error on a server that supports it, after a vector recall", async () => {
    const memory = open(schemas.next(), { embedder: createTestEmbedder({ dimensions: 16 }) });
    await memory.store({ key: "k", content: "my car" });
    await memory.recall("automobile", { mode: "embedding" });
    expect((await memory.healthCheck()).details.iterativeScanError).toBeUndefined();
    await memory.close();
  });
});
