import { createTestEmbedder } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { loadConflictBenchPairs } from "../bench/conflicts/dataset.js";
import { conflictDetectionSettings } from "../bench/conflicts/detection-settings.js";
import { pairMetrics } from "../bench/conflicts/pair-metrics.js";
import { type PairOutcome, runPair } from "../bench/conflicts/pair-run.js";
import { storeFactory } from "./support/stores.js";

/**
 * The conflict rules on the dev split of the labelled benchmark (bench/conflicts/pairs.jsonl),
 * through a real SQLite store with the test embedder and without one. The floors are the
 * issue's targets where the rules meet them and just under the measured value otherwise (dev recall
 * 0.863), so a change that loses quality fails here.
 */
describe("conflict rules on the benchmark's dev split", () => {
  const stores = storeFactory();
  const dev = loadConflictBenchPairs().filter((pair) => pair.split === "dev");

  for (const withEmbedder of [true, false]) {
    it(`${withEmbedder ? "test embedder" : "keyword only"}: precision >= 0.98, recall >= 0.82, nothing else superseded`, async () => {
      const memory = stores.sqlite({
        ...(withEmbedder ? { embedder: createTestEmbedder({ dimensions: 256 }) } : {}),
        settings: conflictDetectionSettings(),
      });
      try {
        const outcomes: PairOutcome[] = [];
        for (const pair of dev) outcomes.push(await runPair(memory, pair));
        const metrics = pairMetrics(outcomes);
        expect(metrics.pairs).toBe(dev.length);
        expect(metrics.precision).toBeGreaterThanOrEqual(0.98);
        expect(metrics.recall).toBeGreaterThanOrEqual(0.82);
        expect(metrics.othersSuperseded).toBe(0);
      } finally {
        await stores.cleanup();
      }
    }, 300_000);
  }
});
