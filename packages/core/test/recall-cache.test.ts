import { describe, expect, it } from "vitest";
import { RecallCache } from "../src/index.js";

describe("RecallCache", () => {
  it("returns what was stored and misses unknown keys", () => {
    const cache = new RecallCache<string[]>();
    cache.set("k", "default", ["a"], 0);
    expect(cache.get("k", 1)).toEqual(["a"]);
    expect(cache.get("other", 1)).toBeUndefined();
  });

  it("evicts the least recently used entry beyond maxEntries", () => {
    const cache = new RecallCache<number>({ maxEntries: 2 });
    cache.set("a", "ns", 1, 0);
    cache.set("b", "ns", 2, 0);
    cache.get("a", 0); // a is now the most recent
    cache.set("c", "ns", 3, 0);
    expect(cache.size).toBe(2);
    expect(cache.get("b", 0)).toBeUndefined();
    expect(cache.get("a", 0)).toBe(1);
    expect(cache.get("c", 0)).toBe(3);
  });

  it("evicts in insertion order without reads", () => {
    const cache = new RecallCache<number>({ maxEntries: 3 });
    for (const [i, key] of ["a", "b", "c", "d", "e"].entries()) cache.set(key, "ns", i, 0);
    expect(cache.size).toBe(3);
    expect(["a", "b", "c", "d", "e"].map((k) => cache.get(k, 0))).toEqual([
      undefined,
      undefined,
      2,
      3,
      4,
    ]);
  });

  it("refreshes an entry set again instead of duplicating it", () => {
    const cache = new RecallCache<number>({ maxEntries: 2 });
    cache.set("a", "ns", 1, 0);
    cache.set("b", "ns", 2, 0);
    cache.set("a", "ns", 10, 0);
    cache.set("c", "ns", 3, 0);
    expect(cache.get("a", 0)).toBe(10);
    expect(cache.get("b", 0)).toBeUndefined();
  });

  it("defaults to 256 entries", () => {
    const cache = new RecallCache<number>();
    for (let i = 0; i < 300; i++) cache.set(`k${i}`, "ns", i, 0);
    expect(cache.size).toBe(256);
    expect(cache.get("k43", 0)).toBeUndefined();
    expect(cache.get("k44", 0)).toBe(44);
  });

  it("expires entries after the TTL", () => {
    const cache = new RecallCache<number>({ ttlMs: 1000 });
    cache.set("a", "ns", 1, 5000);
    expect(cache.get("a", 5999)).toBe(1);
    expect(cache.get("a", 6000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("defaults to a 5-minute TTL", () => {
    const cache = new RecallCache<number>();
    cache.set("a", "ns", 1, 0);
    expect(cache.get("a", 299_999)).toBe(1);
    expect(cache.get("a", 300_000)).toBeUndefined();
  });

  it("is disabled with maxEntries 0", () => {
    const cache = new RecallCache<number>({ maxEntries: 0 });
    cache.set("a", "ns", 1, 0);
    expect(cache.get("a", 0)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("invalidate(namespace) drops only that namespace", () => {
    const cache = new RecallCache<number>();
    cache.set("a1", "alpha", 1, 0);
    cache.set("a2", "alpha", 2, 0);
    cache.set("b1", "beta", 3, 0);
    cache.invalidate("alpha");
    expect(cache.get("a1", 0)).toBeUndefined();
    expect(cache.get("a2", 0)).toBeUndefined();
    expect(cache.get("b1", 0)).toBe(3);
  });

  it("invalidate() without a namespace drops everything", () => {
    const cache = new RecallCache<number>();
    cache.set("a", "alpha", 1, 0);
    cache.set("b", "beta", 2, 0);
    cache.invalidate();
    expect(cache.size).toBe(0);
  });

  describe("key", () => {
    it("ignores option order, undefined options and the abort signal", () => {
      const one = RecallCache.key("coffee", { limit: 5, namespace: "default", mode: "hybrid" });
      const two = RecallCache.key("coffee", {
        mode: "hybrid",
        signal: new AbortController().signal,
        namespace: "default",
        sessionId: undefined,
        limit: 5,
      });
      expect(two).toBe(one);
    });

    it("differs when the query or any option value differs", () => {
      const base = RecallCache.key("coffee", { limit: 5, categories: ["core"] });
      expect(RecallCache.key("tea", { limit: 5, categories: ["core"] })).not.toBe(base);
      expect(RecallCache.key("coffee", { limit: 6, categories: ["core"] })).not.toBe(base);
      expect(RecallCache.key("coffee", { limit: 5, categories: ["daily"] })).not.toBe(base);
      expect(
        RecallCache.key("coffee", { limit: 5, categories: ["core"], since: "2026-01-01" }),
      ).not.toBe(base);
    });

    it("cannot be confused by query text that looks like options", () => {
      expect(RecallCache.key('a",[["limit",5]]', {})).not.toBe(RecallCache.key("a", { limit: 5 }));
    });
  });
});
