import type { EmbeddingProvider, Memory, RetrievalSettings } from "@memory/api";
import { expect, type it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";

interface Instances {
  create(embedder?: EmbeddingProvider, settings?: Partial<RetrievalSettings>): Promise<Memory>;
}

/**
 * `conflict_policy = "link"` and the recall rule for contradictions (part of the `relations`
 * group): a detected contradiction keeps both entries current and writes a `contradicts` edge
 * from the new entry to the old one in the store's own batch; recall puts an entry above the
 * entries it contradicts and names them in `explain.contradicts`.
 */
export function relationsLinkTests(
  _options: ConformanceOptions,
  instances: Instances,
  withRelations: typeof it,
): void {
  withRelations(
    'conflict_policy = "link" keeps both entries and relates the new one to the old',
    async () => {
      const memory = await instances.create(undefined, { conflictPolicy: "link" });
      await memory.store({ key: "home-1", content: "The user lives in Berlin" });
      const newer = await memory.store({ key: "home-2", content: "The user lives in Munich" });
      expect(newer.conflict).toMatchObject({ policy: "link", superseded: [], linked: ["home-1"] });
      expect(newer.conflict!.candidates.find((c) => c.key === "home-1")).toMatchObject({
        linked: true,
        superseded: false,
      });
      expect((await memory.get("home-1"))!.supersededBy).toBeUndefined();
      expect((await memory.get("home-2"))!.conflictRecord).toMatchObject({
        policy: "link",
        linked: ["home-1"],
      });
      const [edge] = await memory.relations("home-2", { direction: "out" });
      expect(edge).toMatchObject({
        from: "home-2",
        to: "home-1",
        type: "contradicts",
        weight: 1,
        metadata: { decidedBy: "rules" },
      });
      // Written with the entry: one time for both.
      expect(edge!.createdAt).toBe((await memory.get("home-2"))!.updatedAt);
      const recalled = await memory.recall("Where does the user live?", { minScore: 0, limit: 5 });
      const order = recalled.map((entry) => entry.key);
      expect(order).toContain("home-1");
      expect(order.indexOf("home-2")).toBeLessThan(order.indexOf("home-1"));
      const top = recalled.find((entry) => entry.key === "home-2")!;
      expect(top.explain!.contradicts).toEqual(["home-1"]);
      expect(
        recalled.find((entry) => entry.key === "home-1")!.explain!.contradicts,
      ).toBeUndefined();
    },
  );

  withRelations("recall puts an entry above the entries it contradicts and says so", async () => {
    const memory = await instances.create(undefined, { conflictMode: "off" });
    await memory.store({
      key: "tea-old",
      content: "Tea preference: the user drinks green tea, green tea every morning, tea tea tea",
    });
    await memory.store({ key: "tea-new", content: "The user stopped drinking tea" });
    const before = (await memory.recall("tea", { minScore: 0 })).map((entry) => entry.key);
    // The control: without the edge, the older entry ranks first for this query.
    expect(before.slice(0, 2)).toEqual(["tea-old", "tea-new"]);
    await memory.relate("tea-new", "tea-old", "contradicts");
    const after = await memory.recall("tea", { minScore: 0 });
    expect(after.map((entry) => entry.key).slice(0, 2)).toEqual(["tea-new", "tea-old"]);
    expect(after[0]!.explain!.contradicts).toEqual(["tea-old"]);
    // Other relation types never reorder.
    await memory.unrelate("tea-new", "tea-old");
    await memory.relate("tea-new", "tea-old", "supports");
    const plain = await memory.recall("tea", { minScore: 0 });
    expect(plain.map((entry) => entry.key).slice(0, 2)).toEqual(["tea-old", "tea-new"]);
    expect(plain[1]!.explain!.contradicts).toBeUndefined();
  });
}
