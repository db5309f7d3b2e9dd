import type { EmbeddingProvider, ImportEntry, Memory, MemoryEntry, SearchMode } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith } from "../declarations.js";
import { keys, useInstances } from "../fixture.js";
import { seededRandom } from "../seeded-random.js";
import { createTestEmbedder } from "../test-embedder.js";
import { PERSONAL_FACTS } from "./recall-scores.js";

const TIED_CONTENT =
  "Weekly team sync notes about the product roadmap, the hiring plan and the budget review";
/** Stored out of order on purpose. */
const TIED_KEYS = ["pear", "apple", "mango", "cherry", "banana", "fig"];

/** Namespace A: several entries match the query, to different degrees; most do not. */
const NAMESPACE_A: readonly { key: string; content: string }[] = [
  { key: "boots-trail", content: "Bought new hiking boots for the mountain trail" },
  { key: "trail-closed", content: "The mountain trail near the lake is closed in winter" },
  { key: "laces", content: "The hiking boots need new laces" },
  { key: "weekend", content: "Planning a hiking weekend with friends in May" },
  { key: "weather", content: "Mountain weather changes quickly in spring" },
  { key: "shoes", content: "Trail running shoes are lighter than boots" },
  // The personal facts of recallScores, minus the one about a hiking trip.
  ...PERSONAL_FACTS.filter((fact) => fact.key !== "vacation"),
  { key: "garden", content: "Tomatoes and basil grow on the balcony" },
];
const QUERY = "hiking boots for the mountain trail";
const QUERY_WORDS = ["hiking", "boots", "mountain", "trail"];
const FILLER = [
  "river",
  "city",
  "weekend",
  "friends",
  "camera",
  "snow",
  "lake",
  "forest",
  "map",
  "tent",
  "summer",
  "rain",
  "coffee",
  "train",
  "bridge",
  "village",
  "sunrise",
  "picnic",
  "jacket",
  "route",
];

/** `count` entries for namespace B, all using the query's words, some many times. */
function* otherNamespace(count: number, namespace: string): Generator<ImportEntry> {
  const random = seededRandom(20_260_101);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    const length = 3 + Math.floor(random() * 12);
    for (let w = 0; w < length; w++) words.push(random() < 0.4 ? pick(QUERY_WORDS) : pick(FILLER));
    yield { key: `b-${i}`, content: words.join(" "), category: "core", namespace };
  }
}

/** What must not move: key, order, score and the parts of the score. */
const ranking = (results: readonly MemoryEntry[]) =>
  results.map((result) => ({
    key: result.key,
    score: result.score,
    fused: result.explain?.fused,
    keywordScore: result.explain?.keywordScore,
    keywordRelevance: result.explain?.keywordRelevance,
    cosine: result.explain?.cosine,
    vectorRelevance: result.explain?.vectorRelevance,
  }));

/** Deterministic order: equal scores by key; a namespace's ranking independent of the others. */
export function recallOrderGroup(options: ConformanceOptions): void {
  const bulk = options.bulkSize ?? 10_000;
  describe(`${options.name}: recall order`, {
    timeout: Math.max(options.timeoutMs ?? 60_000, 180_000),
  }, () => {
    const instances = useInstances(options);

    /** [memory, modes]: bm25 always; hybrid and embedding too with the test embedder. */
    const setups = async (): Promise<[Memory, SearchMode[]][]> => {
      const list: [Memory, SearchMode[]][] = [[await instances.create(), ["bm25"]]];
      const vectors = await instances.create(createTestEmbedder());
      if (vectors.capabilities.vectorSearch) list.push([vectors, ["bm25", "hybrid", "embedding"]]);
      return list;
    };
    const storeTied = async (memory: Memory, order: readonly string[]) => {
      for (const key of order) await memory.store({ key, content: TIED_CONTENT, category: "core" });
      await memory.flush();
    };

    it("orders entries with equal scores by key, ascending, on every call and whatever the write order", async () => {
      const sorted = [...TIED_KEYS].sort();
      for (const [memory, modes] of await setups()) {
        await storeTied(memory, TIED_KEYS);
        // A better match with the last key: score comes before key.
        await memory.store({ key: "zz-best", content: "team roadmap", category: "core" });
        await memory.store({
          key: "unrelated",
          content: "tomatoes on the balcony",
          category: "core",
        });
        await memory.flush();
        for (const mode of modes) {
          const options = { mode, minScore: 0, limit: 7 } as const;
          const first = await memory.recall("team roadmap", options);
          expect(keys(first), mode).toEqual(["zz-best", ...sorted]);
          const tied = first.slice(1);
          expect(new Set(tied.map((result) => result.score)).size, mode).toBe(1);
          expect(tied[0]!.score, mode).toBeLessThan(first[0]!.score!);
          // The limit cuts the tie by key too.
          expect(keys(await memory.recall("team roadmap", { ...options, limit: 3 })), mode).toEqual(
            ["zz-best", ...sorted.slice(0, 2)],
          );
          expect(ranking(await memory.recall("team roadmap", options)), mode).toEqual(
            ranking(first),
          );
        }
        // Stored again in another order: same order, same scores.
        const before = await Promise.all(
          modes.map((mode) => memory.recall("team roadmap", { mode, minScore: 0, limit: 7 })),
        );
        await storeTied(memory, [...TIED_KEYS].reverse());
        for (const [index, mode] of modes.entries()) {
          const after = await memory.recall("team roadmap", { mode, minScore: 0, limit: 7 });
          expect(ranking(after), mode).toEqual(ranking(before[index]!));
        }
      }
    });

    it("gives the same ties the same order in a store written in another order", async () => {
      const sorted = [...TIED_KEYS].sort();
      const a = await instances.create();
      const b = await instances.create();
      await storeTied(a, TIED_KEYS);
      await storeTied(b, [...TIED_KEYS].reverse());
      const fromA = await a.recall("roadmap", { mode: "bm25", limit: 10 });
      const fromB = await b.recall("roadmap", { mode: "bm25", limit: 10 });
      expect(keys(fromA)).toEqual(sorted);
      expect(ranking(fromB)).toEqual(ranking(fromA));
    });

    const independent = async (mode: SearchMode, embedder?: EmbeddingProvider) => {
      const memory = embedder ? await instances.createVector(embedder) : await instances.create();
      for (const entry of NAMESPACE_A)
        await memory.store({ ...entry, category: "core", namespace: "ns-a" });
      await memory.flush();
      const recall = () => memory.recall(QUERY, { mode, namespace: "ns-a", minScore: 0, limit: 8 });
      const before = ranking(await recall());
      // Six entries match the words, to different degrees (hybrid adds vector neighbours).
      expect(before.length).toBe(mode === "bm25" ? 6 : 8);
      expect(before[0]!.key).toBe("boots-trail");
      expect(new Set(before.map((result) => result.score)).size).toBeGreaterThan(4);
      const report = await memory.importEntries(otherNamespace(bulk, "ns-b"));
      expect(report.imported).toBe(bulk);
      await memory.flush();
      expect(await memory.count({ namespace: "ns-b" })).toBe(bulk);
      expect(ranking(await recall())).toEqual(before);
    };

    it(`ranks and scores a namespace the same after ${bulk} entries with the query's words are imported into another (bm25)`, async () => {
      await independent("bm25");
    });

    itWith(options, "vectorSearch")(
      `ranks and scores a namespace the same after ${bulk} entries with the query's words are imported into another (hybrid)`,
      async () => {
        await independent("hybrid", createTestEmbedder());
      },
    );
  });
}
