import type { EmbeddingProvider } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createInMemoryDriver, createMemoryFacade, InMemoryStore } from "../src/index.js";

/** A 3-dimension provider named `model`: every text maps to the same vector. */
function provider(model: string): EmbeddingProvider {
  return {
    name: "fixed",
    model,
    dimensions: 3,
    fingerprint: `fixed:${model}:3`,
    embed: async (texts) => texts.map(() => [1, 0, 0]),
    embedOne: async () => [1, 0, 0],
  };
}

describe("the facade's vector-space rule", () => {
  it("writes no vector, given or computed, into a store whose vectors another provider made", async () => {
    const store = new InMemoryStore();
    const first = createMemoryFacade(createInMemoryDriver({ store }), { embedder: provider("a") });
    await first.store({ key: "old", content: "made by model a" });
    await first.close();
    expect(store.fingerprint).toBe("fixed:a:3");

    const second = createMemoryFacade(createInMemoryDriver({ store }), { embedder: provider("b") });
    await second.store({ key: "given", content: "a given vector", embedding: [0, 1, 0] });
    await second.store({ key: "computed", content: "a computed vector" });
    await second.importEntries([
      { key: "imported", content: "an imported vector", embedding: [0, 0, 1] },
    ]);
    const withVectors = [...store.rows.values()]
      .filter((row) => row.vector !== undefined)
      .map((row) => row.entry.key);
    expect(withVectors).toEqual(["old"]);
    expect((await second.healthCheck()).vector.reason).toMatch(/stored vectors were made by/);
    await second.close();
  });
});
