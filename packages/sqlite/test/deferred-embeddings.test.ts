import { type EmbeddingProvider, MemoryError } from "@memory/api";
import { createTestEmbedder, gatedEmbedder, manualSleep } from "@memory/testkit";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { createSqliteMemory, type SqliteMemoryOptions } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

type Options = SqliteMemoryOptions;

const vectorCount = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM memory_vectors").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

const open = (options: Options) => createSqliteMemory(options);

describe("deferred embeddings: resumed after a restart", () => {
  it("embeds rows left pending by a process whose provider never finished, without backfill", async () => {
    const path = tempDbPath();
    const stuck: EmbeddingProvider = {
      ...createTestEmbedder({ dimensions: 16 }),
      embed: () => new Promise<number[][]>(() => {}),
    };
    const first = open({
      path,
      embedder: stuck,
      deferEmbedding: true,
      closeTimeoutMs: 50,
      logger: () => {},
    });
    for (let i = 0; i < 30; i++) await first.store({ key: `k${i}`, content: `note number ${i}` });
    // close() gives up after closeTimeoutMs: the rows stay pending in the file.
    await first.close();
    expect(vectorCount(path)).toBe(0);

    const timer = manualSleep();
    const embedder = gatedEmbedder(createTestEmbedder({ dimensions: 16 }));
    const second = open({
      path,
      embedder: embedder.provider,
      deferEmbedding: true,
      embeddingBatchSize: 8,
      embeddingWorker: { sleep: timer.sleep },
    });
    await second.init();
    expect(timer.delays).toEqual([1000]);
    expect(embedder.calls).toHaveLength(0);
    timer.wake();
    await vi.waitFor(async () => expect((await second.healthCheck()).pendingEmbeddings).toBe(0));
    expect(vectorCount(path)).toBe(30);
    expect(embedder.calls.map((texts) => texts.length)).toEqual([8, 8, 8, 6]);
    await second.close();
  });

  it("embeds rows stored while the provider failed once a working provider opens the file", async () => {
    const path = tempDbPath();
    const failing = createTestEmbedder({ dimensions: 16, fail: true });
    const first = open({ path, embedder: failing, deferEmbedding: true });
    for (let i = 0; i < 5; i++) await first.store({ key: `k${i}`, content: `note number ${i}` });
    await first.flush();
    expect((await first.healthCheck()).pendingEmbeddings).toBe(5);
    await first.close();

    const second = open({
      path,
      embedder: createTestEmbedder({ dimensions: 16 }),
      deferEmbedding: true,
      embeddingWorker: { resumeDelayMs: 0 },
    });
    await second.init();
    await vi.waitFor(async () => expect((await second.healthCheck()).pendingEmbeddings).toBe(0));
    expect(vectorCount(path)).toBe(5);
    await second.close();
  });

  it("flush() starts the drain of leftover rows at once", async () => {
    const path = tempDbPath();
    const first = open({ path, embedder: createTestEmbedder({ dimensions: 16, fail: true }) });
    await first.store({ key: "k", content: "stored while the provider was down" });
    await first.close();
    const second = open({
      path,
      embedder: createTestEmbedder({ dimensions: 16 }),
      deferEmbedding: true,
      embeddingWorker: { sleep: manualSleep().sleep },
    });
    await second.flush();
    await second.init();
    await second.flush();
    expect((await second.healthCheck()).pendingEmbeddings).toBe(0);
    await second.close();
  });
});

describe("deferred embeddings: bounded memory", () => {
  it("holds at most one batch while 2,000 large entries wait, and stores never block", async () => {
    const embedder = gatedEmbedder(createTestEmbedder({ dimensions: 16 }), true);
    const memory = open({
      path: tempDbPath(),
      embedder: embedder.provider,
      deferEmbedding: true,
      embeddingBatchSize: 16,
    });
    const filler = "lorem ipsum dolor sit amet ".repeat(400);
    for (let i = 0; i < 2000; i++)
      await memory.store({ key: `k${i}`, content: `entry ${i} ${filler}` });
    // Every store returned; the worker then reads one batch and blocks in the provider.
    await vi.waitFor(() => expect(embedder.calls).toHaveLength(1));
    expect(embedder.calls[0]).toHaveLength(16);
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
    expect(embedder.calls.flat()).toHaveLength(2000);
    expect((await memory.healthCheck()).details.queuedEmbeddings).toBe(0);
    await memory.close();
  });
});

describe("deferred embeddings: a failing provider", () => {
  it("stops the drain at the first failure and retries only after a growing backoff", async () => {
    const inner = createTestEmbedder({ dimensions: 16, fail: true });
    const embedder = gatedEmbedder(inner);
    const timer = manualSleep();
    const memory = open({
      path: tempDbPath(),
      embedder: embedder.provider,
      deferEmbedding: true,
      embeddingBatchSize: 10,
      embeddingWorker: { resumeDelayMs: 0, retryDelayMs: 100, sleep: timer.sleep },
    });
    await memory.init();
    timer.wake(); // the resume after open: nothing pending yet
    await memory.flush();
    const entries = Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, content: `note ${i}` }));
    await memory.importEntries(entries);
    await memory.flush();
    // One call for ten batches: the drain stopped instead of trying each batch.
    expect(embedder.calls).toHaveLength(1);
    expect(timer.delays).toEqual([0, 100]);

    const health = await memory.healthCheck();
    expect(health.pendingEmbeddings).toBe(100);
    expect(health.details.lastEmbeddingError).toMatch(/failed/);
    expect(health.details.embeddingWorker).toBe("waiting");

    timer.wake();
    await vi.waitFor(() => expect(timer.delays).toEqual([0, 100, 200]));
    expect(embedder.calls).toHaveLength(2);

    // A store is a signal: it retries at once, and a working provider drains everything.
    inner.setFailing(false);
    await memory.store({ key: "later", content: "stored after the provider came back" });
    await memory.flush();
    const recovered = await memory.healthCheck();
    expect(recovered.pendingEmbeddings).toBe(0);
    expect(recovered.details.lastEmbeddingError).toBeUndefined();
    await memory.close();
  });

  it("close() stops a stuck drain within closeTimeoutMs and keeps the rows pending", async () => {
    const path = tempDbPath();
    const embedder = gatedEmbedder(createTestEmbedder({ dimensions: 16 }), true);
    const memory = open({
      path,
      embedder: embedder.provider,
      deferEmbedding: true,
      closeTimeoutMs: 30,
      logger: () => {},
    });
    await memory.store({ key: "k", content: "never embedded" });
    await vi.waitFor(() => expect(embedder.calls).toHaveLength(1));
    await memory.close();
    embedder.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(vectorCount(path)).toBe(0);
  });
});
