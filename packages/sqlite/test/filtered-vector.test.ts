import { createTestEmbedder } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { createSqliteMemory, VectorIndex } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const DIMS = 32;

function randomVector(seed: number): number[] {
  let state = seed * 2654435761;
  return Array.from({ length: DIMS }, () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 31 - 1;
  });
}

describe("filters inside a large store", () => {
  it("returns the 10 entries of a small namespace, best first, from a 20k-entry store", async () => {
    const embedder = createTestEmbedder({ dimensions: DIMS });
    const memory = createSqliteMemory({ path: tempDbPath(), embedder });
    const big = Array.from({ length: 20_000 }, (_, i) => ({
      key: `big-${i}`,
      content: `filler ${i}`,
      embedding: randomVector(i + 1),
    }));
    expect((await memory.importEntries(big)).imported).toBe(20_000);
    const small = Array.from({ length: 10 }, (_, i) => ({
      key: `small-${i}`,
      content: `small ${i}`,
      namespace: "tiny",
      sessionId: "s-tiny",
      embedding: randomVector(100_000 + i),
    }));
    await memory.importEntries(small);
    // A query near the namespace's vectors, so every cosine is positive and the order is strict.
    const query = small.reduce(
      (sum, entry) => sum.map((value, i) => value + entry.embedding[i]!),
      randomVector(7),
    );
    const cos = (a: number[], b: number[]) => {
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let i = 0; i < DIMS; i++) {
        const x = Math.fround(a[i]!);
        dot += x * b[i]!;
        na += x * x;
        nb += b[i]! * b[i]!;
      }
      return dot / Math.sqrt(na * nb);
    };
    const scored = small.map((entry) => ({ key: entry.key, cosine: cos(entry.embedding, query) }));
    expect(scored.every((entry) => entry.cosine > 0)).toBe(true);
    const expected = scored.sort((a, b) => b.cosine - a.cosine).map((entry) => entry.key);
    // Search through the index with the query vector injected via a one-off provider. The ten
    // entries share a session: conversational context would reorder them, and this test pins
    // the vector stage's order, so it is off.
    const probe = createSqliteMemory({
      path: (await memory.healthCheck()).details.file as string,
      contextNeighborWeight: 0,
      contextSessionWeight: 0,
      embedder: {
        ...embedder,
        embed: async (texts) => texts.map(() => query),
        embedOne: async () => query,
      },
    });
    // minScore 0: this pins the order of all ten, not which of them are relevant.
    const byNamespace = await probe.recall("zzz", {
      mode: "embedding",
      namespace: "tiny",
      limit: 10,
      minScore: 0,
    });
    expect(byNamespace.map((entry) => entry.key)).toEqual(expected);
    // The same through the default namespace's neighbours: the big namespace never leaks in.
    const top3 = await probe.recall("zzz", {
      mode: "embedding",
      namespace: "tiny",
      limit: 3,
      minScore: 0,
    });
    expect(top3.map((entry) => entry.key)).toEqual(expected.slice(0, 3));
    const bySession = await probe.recall("zzz", {
      mode: "embedding",
      namespace: "tiny",
      sessionId: "s-tiny",
      limit: 10,
      minScore: 0,
    });
    expect(bySession.map((entry) => entry.key)).toEqual(expected);
    await probe.close();
    await memory.close();
  }, 120_000); // 20k imports and index loads: sized for a busy 2-core machine, not a bound
});

describe("vector index", () => {
  it("ranks the same with the WASM SIMD kernel and the JavaScript kernel", () => {
    const simd = new VectorIndex(40);
    const plain = new VectorIndex(40, { preferJs: true });
    for (let i = 0; i < 3000; i++) {
      const vector = Array.from(
        { length: 40 },
        (_, j) => Math.sin(i * 0.37 + j * 1.3) + Math.cos(i * j * 0.01),
      );
      simd.upsert(i, i % 2 ? "a" : "b", vector, "");
      plain.upsert(i, i % 2 ? "a" : "b", vector, "");
    }
    for (let i = 0; i < 3000; i += 7) {
      simd.remove(i);
      plain.remove(i);
    }
    const query = Array.from({ length: 40 }, (_, j) => Math.cos(j));
    expect(simd.size).toBe(plain.size);
    expect(simd.search(query, 50)).toEqual(plain.search(query, 50));
    expect(simd.search(query, 20, "a")).toEqual(plain.search(query, 20, "a"));
    expect(simd.search(query, 20, "missing")).toEqual([]);
    expect(simd.namespaceSize("a") + simd.namespaceSize("b")).toBe(simd.size);
  });
});
