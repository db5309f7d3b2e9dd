import { MemoryError } from "@memory/api";
import { createTestEmbedder, gatedEmbedder, manualSleep } from "@memory/testkit";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createPostgresMemory, type PostgresMemoryOptions } from "../src/index.js";
import { checkIterativeScan } from "../src/recall/vector-stage.js";
import type { VectorState } from "../src/vector-store.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

type Options = Partial<PostgresMemoryOptions>;

const schemas = schemaRegistry("deferred");
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

const vectorCount = async (schema: string) =>
  Number(
    (await admin<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".memory_vectors`))[0]!.n,
  );

describe("postgres: deferred embeddings resumed after a restart", () => {
  it("embeds rows stored while the provider failed once a working provider opens the schema", async () => {
    const schema = schemas.next();
    const failing = createTestEmbedder({ dimensions: 16, fail: true });
    const first = open(schema, { embedder: failing, deferEmbedding: true });
    for (let i = 0; i < 30; i++) await first.store({ key: `k${i}`, content: `note number ${i}` });
    await first.flush();
    expect((await first.healthCheck()).pendingEmbeddings).toBe(30);
    await first.close();
    expect(await vectorCount(schema)).toBe(0);

    const timer = manualSleep();
    const embedder = gatedEmbedder(createTestEmbedder({ dimensions: 16 }));
    const second = open(schema, {
      embedder: embedder.provider,
      deferEmbedding: true,
      embeddingWorker: { batchSize: 8, sleep: timer.sleep },
    });
    await second.init();
    expect(timer.delays).toEqual([1000]);
    expect(embedder.calls).toHaveLength(0);
    timer.wake();
    await vi.waitFor(async () => expect((await second.healthCheck()).pendingEmbeddings).toBe(0));
    expect(await vectorCount(schema)).toBe(30);
    expect(embedder.calls.map((texts) => texts.length)).toEqual([8, 8, 8, 6]);
    await second.close();
  });
});

describe("postgres: deferred embeddings hold one batch at most", () => {
  it("keeps no content queued while 2,000 large entries wait for a blocked provider", async () => {
    const schema = schemas.next();
    const embedder = gatedEmbedder(createTestEmbedder({ dimensions: 16 }), true);
    const memory = open(schema, {
      embedder: embedder.provider,
      deferEmbedding: true,
      embeddingWorker: { batchSize: 16 },
    });
    const filler = "lorem ipsum dolor sit amet ".repeat(100);
    for (let start = 0; start < 2000; start += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          memory.store({ key: `k${start + i}`, content: `entry ${start + i} ${filler}` }),
        ),
      );
    }
    // Stores returned while the provider is blocked on its first call.
    expect(embedder.calls).toHaveLength(1);
    const health = await memory.healthCheck();
    expect(health.pendingEmbeddings).toBe(2000);
    expect(health.details.queuedEmbeddings).toBeLessThanOrEqual(16);
    expect(health.details.embeddingWorker).toBe("running");
    const error = await memory.flush({ timeoutMs: 20 }).catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "TIMEOUT")).toBe(true);

    embedder.release();
    await memory.flush();
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(0);
    expect(Math.max(...embedder.calls.map((texts) => texts.length))).toBeLessThanOrEqual(16);
    expect(await vectorCount(schema)).toBe(2000);
    await memory.close();
  });
});

describe("postgres: deferred embeddings with a failing provider", () => {
  it("stops at the first failure, backs off, and shows the pending count and the error", async () => {
    const schema = schemas.next();
    const inner = createTestEmbedder({ dimensions: 16, fail: true });
    const embedder = gatedEmbedder(inner);
    const timer = manualSleep();
    const memory = open(schema, {
      embedder: embedder.provider,
      deferEmbedding: true,
      embeddingWorker: { batchSize: 10, resumeDelayMs: 0, retryDelayMs: 100, sleep: timer.sleep },
    });
    await memory.init();
    timer.wake(); // the resume after open: nothing pending yet
    await memory.flush();
    const entries = Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, content: `note ${i}` }));
    await memory.importEntries(entries);
    await memory.flush();
    // One provider call for ten batches: the drain stopped instead of trying each batch.
    expect(embedder.calls).toHaveLength(1);
    expect(timer.delays).toEqual([0, 100]);

    const health = await memory.healthCheck();
    expect(health.pendingEmbeddings).toBe(100);
    expect(health.details.lastEmbeddingError).toMatch(/failed/);
    expect(health.details.embeddingWorker).toBe("waiting");

    timer.wake();
    await vi.waitFor(() => expect(timer.delays).toEqual([0, 100, 200]));
    expect(embedder.calls).toHaveLength(2);

    inner.setFailing(false);
    await memory.store({ key: "later", content: "stored after the provider came back" });
    await memory.flush();
    const recovered = await memory.healthCheck();
    expect(recovered.pendingEmbeddings).toBe(0);
    expect(recovered.details.lastEmbeddingError).toBeUndefined();
    await memory.close();
  });

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

describe("postgres: two processes draining one schema", () => {
  it("embeds every row once per content, whichever process gets there", async () => {
    const schema = schemas.next();
    const a = gatedEmbedder(createTestEmbedder({ dimensions: 16 }));
    const b = gatedEmbedder(createTestEmbedder({ dimensions: 16 }));
    const first = open(schema, {
      embedder: a.provider,
      deferEmbedding: true,
      embeddingWorker: { batchSize: 7 },
    });
    const second = open(schema, {
      embedder: b.provider,
      deferEmbedding: true,
      embeddingWorker: { batchSize: 7 },
    });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? first : second).store({ key: `k${i % 60}`, content: `note ${i} about a car` }),
      ),
    );
    await Promise.all([first.flush(), second.flush()]);
    // Both may have embedded a row; the vectors match the current content and are one per row.
    const rows = await admin<{ n: string; stale: string }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE v.content_hash <> m.content_hash) AS stale
       FROM "${schema}".memory_vectors v JOIN "${schema}".memories m ON m.id = v.memory_id`,
    );
    expect(rows[0]).toEqual({ n: "60", stale: "0" });
    expect((await first.healthCheck()).pendingEmbeddings).toBe(0);
    const inner = createTestEmbedder({ dimensions: 16 });
    for (const entry of await first.list({ limit: 100, withEmbeddings: true })) {
      const expected = await inner.embedOne(entry.content);
      for (const [i, value] of entry.embedding!.entries())
        expect(value).toBeCloseTo(expected[i]!, 5);
    }
    await Promise.all([first.close(), second.close()]);
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
