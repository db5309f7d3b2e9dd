import { type EmbeddingProvider, type Memory, MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type {
  ConformanceOptions,
  EmbeddingJobOptions,
  FactoryContext,
} from "../conformance-options.js";
import { itWith, requireFeature, UnmetDeclarationError } from "../declarations.js";
import { caught, keys, useInstances } from "../fixture.js";
import { gatedEmbedder } from "../gated-embedder.js";
import { manualSleep } from "../manual-sleep.js";
import { createTestEmbedder } from "../test-embedder.js";

const DIMENSIONS = 16;
const ENTRIES = [
  { key: "car", content: "My car needs new tyres before winter" },
  { key: "coffee", content: "Drinks two espresso shots every morning" },
  { key: "dog", content: "Walks the puppy in the park at noon" },
];

const embedder = (fail = false) => createTestEmbedder({ dimensions: DIMENSIONS, fail });

/**
 * `defer_embedding`: store returns before the vector is computed; a background worker of the
 * facade embeds pending entries one batch at a time, backs off when the provider fails, resumes
 * what an earlier instance left pending, and never loses or mixes up a write. Only the clock of
 * the worker is injected (`manualSleep`): nothing here waits on, or asserts about, wall time.
 */
export function deferredEmbeddingGroup(options: ConformanceOptions): void {
  describe(`${options.name}: deferred embedding`, {
    timeout: Math.max(options.timeoutMs ?? 60_000, 120_000),
  }, () => {
    const instances = useInstances(options);

    /**
     * Opens with `defer_embedding` on and checks that it took: the precondition of the group
     * (declared deferred embedding, but the instance embeds inline, fails here).
     */
    const deferred = async (
      provider: EmbeddingProvider,
      jobs: Omit<EmbeddingJobOptions, "deferEmbedding"> = {},
      open: (context: FactoryContext) => Promise<Memory> = instances.createWith,
    ): Promise<Memory> => {
      const memory = await open({
        embedder: provider,
        embeddingJobs: { deferEmbedding: true, ...jobs },
      });
      requireFeature(options, memory, "deferredEmbedding");
      const worker = (await memory.healthCheck()).details.embeddingWorker;
      if (worker === "off" || worker === undefined) {
        throw new UnmetDeclarationError(
          options.name,
          "deferredEmbedding",
          `healthCheck().details.embeddingWorker is ${JSON.stringify(worker)} on an instance opened with context.embeddingJobs.deferEmbedding`,
          "pass context.embeddingJobs on to the backend's deferEmbedding (and batch size and worker) options",
        );
      }
      return memory;
    };

    it("returns from store before the vector exists; keyword recall finds the entry meanwhile", async () => {
      const gated = gatedEmbedder(embedder(), true);
      const memory = await deferred(gated.provider);
      // Every store resolves although the provider has not answered once.
      for (const entry of ENTRIES) await memory.store(entry);
      await gated.called(1);
      expect((await memory.get("car", { withEmbedding: true }))!.embedding).toBeUndefined();
      const waiting = await memory.healthCheck();
      expect(waiting.pendingEmbeddings).toBe(ENTRIES.length);
      expect(waiting.details.embeddingWorker).toBe("running");
      expect(keys(await memory.recall("tyres", { mode: "bm25" }))).toEqual(["car"]);
      const error = await caught(() => memory.flush({ timeoutMs: 20 }));
      expect(MemoryError.hasCode(error, "TIMEOUT"), String(error)).toBe(true);

      gated.release();
      await memory.flush();
      expect((await memory.healthCheck()).pendingEmbeddings).toBe(0);
      expect((await memory.get("car", { withEmbedding: true }))!.embedding).toHaveLength(
        DIMENSIONS,
      );
      // Found by meaning only: "automobile" is "car" to the test embedder.
      const found = await memory.recall("automobile", { mode: "embedding" });
      expect(keys(found)[0]).toBe("car");
      expect(found[0]!.explain!.source).toBe("vector");
    });

    it("holds at most one batch while many entries wait, and embeds each once", async () => {
      const gated = gatedEmbedder(embedder(), true);
      const memory = await deferred(gated.provider, { batchSize: 16 });
      const total = 1000;
      const filler = "lorem ipsum dolor sit amet ".repeat(100);
      const report = await memory.importEntries(
        Array.from({ length: total - 1 }, (_, i) => ({
          key: `k${i}`,
          content: `entry ${i} ${filler}`,
        })),
      );
      expect(report.imported).toBe(total - 1);
      await memory.store({ key: "last", content: `the last entry ${filler}` });
      // Everything returned; the worker read one batch and is blocked in the provider.
      await gated.called(1);
      expect(gated.calls[0]!.length).toBeLessThanOrEqual(16);
      const health = await memory.healthCheck();
      expect(health.pendingEmbeddings).toBe(total);
      expect(health.details.queuedEmbeddings).toBeLessThanOrEqual(16);
      expect(health.details.embeddingWorker).toBe("running");

      gated.release();
      await memory.flush();
      expect((await memory.healthCheck()).pendingEmbeddings).toBe(0);
      expect((await memory.healthCheck()).details.queuedEmbeddings).toBe(0);
      expect(
        Math.max(...gated.calls.map((texts) => texts.length)),
        "the factory must pass context.embeddingJobs.batchSize on",
      ).toBeLessThanOrEqual(16);
      expect(gated.calls.flat()).toHaveLength(total);
    });

    it("keeps entries stored when the provider fails, backs off, and retries on the next store", async () => {
      const inner = embedder(true);
      const gated = gatedEmbedder(inner);
      const timer = manualSleep();
      const memory = await deferred(gated.provider, {
        batchSize: 10,
        worker: { resumeDelayMs: 0, retryDelayMs: 100, sleep: timer.sleep },
      });
      timer.wake(); // the resume after open: nothing pending yet
      await memory.flush();
      const entries = Array.from({ length: 100 }, (_, i) => ({
        key: `k${i}`,
        content: `note ${i}`,
      }));
      await memory.importEntries(entries);
      await memory.flush();
      // One provider call for ten batches: the drain stopped at the first failure.
      expect(gated.calls).toHaveLength(1);
      expect(timer.delays).toEqual([0, 100]);
      const health = await memory.healthCheck();
      expect(health.pendingEmbeddings).toBe(100);
      expect(health.details.lastEmbeddingError).toMatch(/fail/);
      expect(health.details.embeddingWorker).toBe("waiting");
      // Stored all the same, and found by keywords.
      expect((await memory.get("k7"))!.content).toBe("note 7");
      expect(await memory.count()).toBe(100);

      // The retry fails again and waits twice as long.
      timer.wake();
      await timer.slept(3);
      expect(timer.delays).toEqual([0, 100, 200]);
      expect(gated.calls).toHaveLength(2);

      // A store is a signal: it retries at once, and a working provider drains everything.
      inner.setFailing(false);
      await memory.store({ key: "later", content: "stored after the provider came back" });
      await memory.flush();
      const recovered = await memory.healthCheck();
      expect(recovered.pendingEmbeddings).toBe(0);
      expect(recovered.details.lastEmbeddingError).toBeUndefined();
      expect((await memory.get("k7", { withEmbedding: true }))!.embedding).toHaveLength(DIMENSIONS);
    });

    itWith(options, "persistent")(
      "resumes what an earlier instance left pending, after the resume delay, one batch at a time",
      async () => {
        const shared = await instances.shared();
        const first = await deferred(embedder(true), {}, shared.openWith);
        for (let i = 0; i < 30; i++)
          await first.store({ key: `k${i}`, content: `note number ${i}` });
        await first.flush();
        expect((await first.healthCheck()).pendingEmbeddings).toBe(30);
        await first.close();

        const timer = manualSleep();
        const gated = gatedEmbedder(embedder());
        const second = await deferred(
          gated.provider,
          { batchSize: 8, worker: { sleep: timer.sleep } },
          shared.openWith,
        );
        // Nothing is embedded before the resume delay (a short-lived process never pays for it).
        expect(timer.delays).toEqual([1000]);
        expect(gated.calls).toHaveLength(0);
        timer.wake();
        await second.flush();
        expect((await second.healthCheck()).pendingEmbeddings).toBe(0);
        expect(gated.calls.map((texts) => texts.length)).toEqual([8, 8, 8, 6]);
      },
    );

    itWith(options, "persistent")(
      "flush() drains leftover entries at once, without waiting for the resume delay",
      async () => {
        const shared = await instances.shared();
        const first = await shared.openWith({ embedder: embedder(true) });
        await first.store({ key: "k", content: "stored while the provider was down" });
        expect((await first.healthCheck()).pendingEmbeddings).toBe(1);
        await first.close();
        const timer = manualSleep();
        const second = await deferred(
          embedder(),
          { worker: { sleep: timer.sleep } },
          shared.openWith,
        );
        expect(timer.delays).toEqual([1000]);
        await second.flush();
        expect((await second.healthCheck()).pendingEmbeddings).toBe(0);
        expect((await second.get("k", { withEmbedding: true }))!.embedding).toHaveLength(
          DIMENSIONS,
        );
      },
    );

    itWith(options, "sharedStore")(
      "ends with one vector per entry, made from its current content, when two instances drain one store",
      async () => {
        const shared = await instances.shared();
        const [a, b] = [
          await deferred(embedder(), { batchSize: 7 }, shared.openWith),
          await deferred(embedder(), { batchSize: 7 }, shared.openWith),
        ];
        // 100 writes to 60 keys from both sides: contents change while the workers embed them.
        await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            (i % 2 ? a : b).store({ key: `k${i % 60}`, content: `note ${i} about a car` }),
          ),
        );
        await Promise.all([a.flush(), b.flush()]);
        expect((await a.healthCheck()).pendingEmbeddings).toBe(0);
        expect((await b.healthCheck()).pendingEmbeddings).toBe(0);
        const reference = embedder();
        const stored = await a.list({ limit: 100, withEmbeddings: true });
        expect(stored).toHaveLength(60);
        for (const entry of stored) {
          const expected = await reference.embedOne(entry.content);
          expect(entry.embedding, entry.key).toHaveLength(DIMENSIONS);
          for (const [i, value] of entry.embedding!.entries())
            expect(value, entry.key).toBeCloseTo(expected[i]!, 5);
        }
      },
    );
  });
}
