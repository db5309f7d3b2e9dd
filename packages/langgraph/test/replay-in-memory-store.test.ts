import { Embeddings } from "@langchain/core/embeddings";
import { type BaseStore, InMemoryStore, type Item } from "@langchain/langgraph";
import { beforeAll, describe, expect, it } from "vitest";
import { createLangGraphStore, type SearchItem } from "../src/index.js";
import { BACKENDS } from "./helpers.js";

/**
 * One operation script, replayed against LangGraph's own InMemoryStore (the reference) and
 * ours, over a real SQLite file and over Markdown files (the store uses only the public `Memory`
 * interface); every step's results are compared. Where the two differ by design, the step says
 * how, and the difference itself is asserted (docs/frameworks/langgraph.md lists them):
 * - `set`: a search without a query returns the same items; InMemoryStore orders them by
 *   insertion, ours newest first.
 * - `query`: InMemoryStore ranks every item under the prefix by cosine, unrelated ones too;
 *   ours returns recall's relevant results only (calibrated scores, `minScore`), so ours are a
 *   subset of the reference's, with the same best item.
 */

/** A bag-of-words embedder, so the reference store really ranks by the words of a query. */
class WordHashEmbeddings extends Embeddings {
  static readonly DIMENSIONS = 64;

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return documents.map((document) => WordHashEmbeddings.vector(document));
  }

  async embedQuery(document: string): Promise<number[]> {
    return WordHashEmbeddings.vector(document);
  }

  static vector(text: string): number[] {
    const vector = new Array<number>(WordHashEmbeddings.DIMENSIONS).fill(0);
    for (const [word] of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
      let hash = 2166136261;
      for (const char of word) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619);
      const slot = (hash >>> 0) % WordHashEmbeddings.DIMENSIONS;
      vector[slot] = (vector[slot] ?? 0) + 1;
    }
    return vector;
  }
}

type Compare = "exact" | "set" | "query";
interface Step {
  name: string;
  compare: Compare;
  run: (store: BaseStore) => Promise<unknown>;
}

const put = (namespace: string[], key: string, value: Record<string, unknown>): Step => ({
  name: `put ${namespace.join("/")} ${key}`,
  compare: "exact",
  run: (store) => store.put(namespace, key, value),
});

const SCRIPT: Step[] = [
  put(["users", "ada", "facts"], "city", { text: "Ada lives in Lisbon", kind: "fact", rank: 2 }),
  put(["users", "ada", "facts"], "food", {
    text: "Ada loves grilled sardines",
    kind: "preference",
    rank: 5,
  }),
  put(["users", "ada", "prefs"], "theme", {
    text: "Ada prefers a dark theme",
    kind: "preference",
    rank: 1,
  }),
  put(["users", "bob", "facts"], "city", { text: "Bob lives in Oslo", kind: "fact", rank: 3 }),
  put(["teams", "core", "facts"], "standup", {
    text: "The standup is at nine",
    kind: "fact",
    rank: 4,
  }),
  { name: "get city", compare: "exact", run: (s) => s.get(["users", "ada", "facts"], "city") },
  { name: "get missing", compare: "exact", run: (s) => s.get(["users", "ada", "facts"], "nope") },
  put(["users", "ada", "facts"], "city", { text: "Ada moved to Porto", kind: "fact", rank: 2 }),
  { name: "get updated", compare: "exact", run: (s) => s.get(["users", "ada", "facts"], "city") },
  { name: "search users", compare: "set", run: (s) => s.search(["users"], { limit: 100 }) },
  {
    name: "search ada preferences",
    compare: "set",
    run: (s) => s.search(["users", "ada"], { filter: { kind: "preference" } }),
  },
  {
    name: "search everything ranked 3+",
    compare: "set",
    run: (s) => s.search([], { filter: { rank: { $gte: 3 } } }),
  },
  {
    name: "search users facts below 3",
    compare: "set",
    run: (s) => s.search(["users"], { filter: { kind: { $in: ["fact"] }, rank: { $lt: 3 } } }),
  },
  {
    name: "query porto",
    compare: "query",
    run: (s) => s.search(["users"], { query: "Porto", limit: 5 }),
  },
  {
    name: "query sardines among preferences",
    compare: "query",
    run: (s) =>
      s.search(["users", "ada"], { query: "sardines", filter: { kind: "preference" }, limit: 5 }),
  },
  { name: "list all", compare: "exact", run: (s) => s.listNamespaces() },
  {
    name: "list users to depth 2",
    compare: "exact",
    run: (s) => s.listNamespaces({ prefix: ["users"], maxDepth: 2 }),
  },
  { name: "list facts", compare: "exact", run: (s) => s.listNamespaces({ suffix: ["facts"] }) },
  {
    name: "list users/*/facts",
    compare: "exact",
    run: (s) => s.listNamespaces({ prefix: ["users", "*", "facts"] }),
  },
  { name: "list page", compare: "exact", run: (s) => s.listNamespaces({ limit: 2, offset: 1 }) },
  {
    name: "delete bob",
    compare: "exact",
    run: (s) => s.delete(["users", "bob", "facts"], "city"),
  },
  { name: "get deleted", compare: "exact", run: (s) => s.get(["users", "bob", "facts"], "city") },
  { name: "search bob", compare: "set", run: (s) => s.search(["users", "bob"]) },
];

/** What must agree: identity and value; timestamps are each store's own clock. */
function comparable(item: Item | null) {
  return item === null ? null : { namespace: item.namespace, key: item.key, value: item.value };
}

function normalize(result: unknown, compare: Compare): unknown {
  if (!Array.isArray(result)) return comparable((result ?? null) as Item | null);
  if (result.every((element) => Array.isArray(element))) return result; // namespaces
  const items = (result as Item[]).map(comparable);
  if (compare === "exact") return items;
  return items.sort((a, b) =>
    JSON.stringify([a?.namespace, a?.key]).localeCompare(JSON.stringify([b?.namespace, b?.key])),
  );
}

for (const [backend, openMemory] of BACKENDS) {
  describe(`one operation script against LangGraph's InMemoryStore and ours over ${backend}`, () => {
    const reference = new InMemoryStore({
      index: {
        dims: WordHashEmbeddings.DIMENSIONS,
        embeddings: new WordHashEmbeddings({}),
        fields: ["text"],
      },
    });
    const results = new Map<string, { reference: unknown; ours: unknown }>();

    beforeAll(async () => {
      const ours = createLangGraphStore({ memory: openMemory(), indexFields: ["text"] });
      for (const step of SCRIPT) {
        // InMemoryStore hands out its live item objects (a later put changes them): keep copies.
        const expected = structuredClone(await step.run(reference));
        results.set(step.name, { reference: expected, ours: await step.run(ours) });
      }
    });

    for (const step of SCRIPT.filter((candidate) => candidate.compare !== "query")) {
      it(`agrees on "${step.name}"`, () => {
        const { reference: expected, ours } = results.get(step.name) ?? {};
        expect(normalize(ours, step.compare)).toEqual(normalize(expected, step.compare));
      });
    }

    for (const step of SCRIPT.filter((candidate) => candidate.compare === "query")) {
      it(`puts the same item first and returns a subset of the reference on "${step.name}"`, () => {
        const { reference: expected, ours } = results.get(step.name) as {
          reference: SearchItem[];
          ours: SearchItem[];
        };
        expect(ours.length).toBeGreaterThan(0);
        expect(comparable(ours[0] ?? null)).toEqual(comparable(expected[0] ?? null));
        const referenceKeys = expected.map((item) => JSON.stringify([item.namespace, item.key]));
        for (const item of ours) {
          expect(referenceKeys).toContain(JSON.stringify([item.namespace, item.key]));
          expect(item.score).toBeGreaterThan(0);
          expect(item.score).toBeLessThanOrEqual(1);
        }
      });
    }

    it("keeps createdAt and moves updatedAt on an update, in both stores", () => {
      const before = results.get("get city") as { reference: Item; ours: Item };
      const after = results.get("get updated") as { reference: Item; ours: Item };
      for (const side of ["reference", "ours"] as const) {
        expect(after[side].createdAt.getTime()).toBe(before[side].createdAt.getTime());
        expect(after[side].updatedAt.getTime()).toBeGreaterThanOrEqual(
          before[side].updatedAt.getTime(),
        );
      }
    });

    it("differs by design after the last item of a namespace is deleted: only InMemoryStore still lists it", async () => {
      const ours = createLangGraphStore({ memory: openMemory() });
      for (const store of [reference, ours]) {
        await store.put(["gone", "soon"], "only", { text: "the only item" });
        await store.delete(["gone", "soon"], "only");
      }
      expect(await reference.listNamespaces({ prefix: ["gone"] })).toEqual([["gone", "soon"]]);
      expect(await ours.listNamespaces({ prefix: ["gone"] })).toEqual([]);
    });

    it("differs by design in one batch: ours runs operations in order, InMemoryStore applies puts last", async () => {
      const ours = createLangGraphStore({ memory: openMemory() });
      const batch = (store: BaseStore) =>
        store.batch([
          { namespace: ["batch"], key: "k", value: { text: "written first" } },
          { namespace: ["batch"], key: "k" },
        ]);
      const [, referenceGet] = await batch(new InMemoryStore());
      const [, ourGet] = await batch(ours);
      expect(referenceGet).toBeNull();
      expect(ourGet?.value).toEqual({ text: "written first" });
    });
  });
}
