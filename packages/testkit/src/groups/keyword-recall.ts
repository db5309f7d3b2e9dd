import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith, requireFeature } from "../declarations.js";
import { keys, nextMillisecond, useInstances } from "../fixture.js";

const CORPUS = [
  { key: "editor", content: "The user edits code in Neovim with a dark theme" },
  { key: "lang", content: "Favourite programming language is TypeScript" },
  { key: "pet", content: "Has a cat named Miso who likes boxes" },
  { key: "food", content: "Allergic to peanuts, loves spicy ramen" },
  { key: "work", content: "Works on a distributed database team" },
];

/** BM25 keyword recall, the empty query, explain, limits, prefix and LIKE fallback. */
export function keywordRecallGroup(options: ConformanceOptions): void {
  describe(`${options.name}: keyword recall`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);
    const seeded = async () => {
      const memory = await instances.create();
      for (const entry of CORPUS) await memory.store({ ...entry, category: "core" });
      return memory;
    };

    it("finds the entry whose content matches the query, first", async () => {
      const memory = await seeded();
      const results = await memory.recall("which programming language", { mode: "bm25" });
      expect(results[0]?.key).toBe("lang");
      expect(results[0]!.score).toBeGreaterThan(0);
    });

    it("explains every result with the keyword rank and raw score", async () => {
      const memory = await seeded();
      const [top] = await memory.recall("Neovim theme", { mode: "bm25" });
      expect(top?.key).toBe("editor");
      expect(top!.explain).toMatchObject({
        mode: "bm25",
        source: "keyword",
        keywordRank: 0,
        decay: 1,
      });
      expect(top!.explain!.keywordScore).toBeGreaterThan(0);
      expect(top!.explain!.fused).toBeGreaterThan(0);
    });

    it("does not give the top keyword hit a score of 1 just for ranking first", async () => {
      const memory = await seeded();
      const [top] = await memory.recall("cat", { mode: "bm25" });
      expect(top?.key).toBe("pet");
      expect(top!.score).toBeLessThan(1);
    });

    it("searches the key as well as the content", async () => {
      const memory = await instances.create();
      await memory.store({ key: "zebra-crossing", content: "a note without the animal word" });
      await memory.store({ key: "other", content: "something else entirely" });
      expect(keys(await memory.recall("zebra", { mode: "bm25" }))).toEqual(["zebra-crossing"]);
    });

    it("returns the most recent entries for an empty, blank or * query", async () => {
      const memory = await instances.create();
      for (const key of ["one", "two", "three"]) {
        await memory.store({ key, content: `entry ${key}`, category: "daily" });
        await nextMillisecond();
      }
      for (const query of ["", "   ", "*"]) {
        const results = await memory.recall(query, { limit: 2 });
        expect(keys(results)).toEqual(["three", "two"]);
        expect(results[0]!.explain!.source).toBe("recent");
      }
    });

    it("returns nothing for limit 0 on every path", async () => {
      const memory = await seeded();
      for (const query of ["", "TypeScript", "unmatched words here"]) {
        for (const mode of ["hybrid", "bm25", "embedding"] as const) {
          expect(await memory.recall(query, { limit: 0, mode })).toEqual([]);
        }
      }
    });

    it("honours limit", async () => {
      const memory = await instances.create();
      for (let i = 0; i < 12; i++)
        await memory.store({ key: `k${i}`, content: `shared word number ${i}` });
      expect(await memory.recall("shared word", { limit: 3, mode: "bm25" })).toHaveLength(3);
      expect(await memory.recall("shared word", { mode: "bm25" })).toHaveLength(5);
    });

    it("treats wild* as a prefix of a token, not a substring", async () => {
      const memory = await instances.create();
      await memory.store({ key: "a", content: "wildlife photography" });
      await memory.store({ key: "b", content: "an unwilding of the garden" });
      expect(keys(await memory.recall("wild*", { mode: "bm25" }))).toEqual(["a"]);
    });

    it("matches a prefix against words the stemmer shortens (zephyrine*, beacons*, studies*)", async () => {
      const memory = await instances.create();
      await memory.store({ key: "wind", content: "a zephyrine breeze at dusk" });
      await memory.store({ key: "light", content: "one beacon on the hill" });
      await memory.store({ key: "desk", content: "a quiet study corner" });
      await memory.store({ key: "room", content: "the studio upstairs" });
      await memory.store({ key: "other", content: "nothing related here" });
      for (const [query, expected] of [
        ["zephyrine*", ["wind"]],
        ["zephyr*", ["wind"]],
        ["beacons*", ["light"]],
        ["beacon*", ["light"]],
        ["studies*", ["desk"]],
        ["stud*", ["desk", "room"]],
      ] as const) {
        const found = keys(await memory.recall(query, { mode: "bm25", minScore: 0 }));
        expect(found.sort(), query).toEqual([...expected]);
      }
    });

    it("returns an empty list, not an error, when nothing matches", async () => {
      const memory = await seeded();
      expect(await memory.recall("xylophone quasar", { mode: "bm25" })).toEqual([]);
    });

    it("falls back to a LIKE search when hybrid recall finds nothing", async () => {
      const memory = await instances.create();
      await memory.store({ key: "code", content: "error code ABC-123_xyz in the logs" });
      await memory.store({ key: "other", content: "unrelated" });
      // "rror" is inside a word, so the word index cannot match it; the fallback can.
      const results = await memory.recall("rror", { mode: "hybrid" });
      expect(keys(results)).toEqual(["code"]);
      expect(results[0]!.explain!.source).toBe("like");
    });

    it("escapes % and _ in the LIKE fallback", async () => {
      const memory = await instances.create();
      await memory.store({ key: "a", content: "progress 50 percent done" });
      expect(await memory.recall("s_", { mode: "hybrid" })).toEqual([]);
    });

    it("applies minScore", async () => {
      const memory = await seeded();
      const all = await memory.recall("cat boxes", { mode: "bm25" });
      expect(all.length).toBeGreaterThan(0);
      expect(await memory.recall("cat boxes", { mode: "bm25", minScore: 0.999_999 })).toEqual([]);
      const threshold = all[0]!.score!;
      expect(
        keys(await memory.recall("cat boxes", { mode: "bm25", minScore: threshold })),
      ).toContain(all[0]!.key);
    });

    it("sees a write made after a cached recall (the hot cache is invalidated)", async () => {
      const memory = await seeded();
      expect(keys(await memory.recall("kayak", { mode: "bm25" }))).toEqual([]);
      await memory.store({ key: "sport", content: "Goes kayak touring every summer" });
      expect(keys(await memory.recall("kayak", { mode: "bm25" }))).toEqual(["sport"]);
      await memory.forget("sport");
      expect(keys(await memory.recall("kayak", { mode: "bm25" }))).toEqual([]);
    });

    itWith(options, "cjkSearch")(
      "finds Chinese, Japanese and Korean text by a two-character word",
      async () => {
        const memory = await instances.create();
        requireFeature(options, memory, "cjkSearch");
        await memory.store({ key: "ja", content: "私は記憶力が良いです" });
        await memory.store({ key: "zh", content: "我喜欢喝绿茶" });
        await memory.store({ key: "ko", content: "저는 커피를 좋아합니다" });
        await memory.store({ key: "en", content: "plain English text" });
        expect(keys(await memory.recall("記憶", { mode: "bm25" }))).toEqual(["ja"]);
        expect(keys(await memory.recall("绿茶", { mode: "bm25" }))).toEqual(["zh"]);
        expect(keys(await memory.recall("커피", { mode: "bm25" }))).toEqual(["ko"]);
      },
    );

    it("decays old non-core entries but not core ones", async () => {
      const memory = await instances.create();
      const old = new Date(Date.now() - 14 * 86_400_000).toISOString();
      await memory.importEntries([
        {
          key: "old-daily",
          content: "quarterly planning meeting notes",
          category: "daily",
          updatedAt: old,
          createdAt: old,
        },
        {
          key: "old-core",
          content: "quarterly planning meeting notes",
          category: "core",
          updatedAt: old,
          createdAt: old,
        },
      ]);
      // minScore 0: with the default threshold a two-week-old daily note is already too stale.
      const results = await memory.recall("quarterly planning", { mode: "bm25", minScore: 0 });
      const daily = results.find((entry) => entry.key === "old-daily")!;
      const core = results.find((entry) => entry.key === "old-core")!;
      expect(core.explain!.decay).toBe(1);
      expect(daily.explain!.decay).toBeCloseTo(0.25, 2);
      expect(keys(results)[0]).toBe("old-core");
    });
  });
}
