import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MemoryError } from "@memory/api";
import { afterEach, describe, expect, it } from "vitest";
import {
  addCollection,
  buildMemoryContext,
  listCollections,
  removeCollection,
  syncCollections,
} from "../src/index.js";
import { countingEmbedder, DECISION, writeStandardNotes } from "./support/collection-fixture.js";
import { type StoreOptions, storeFactory } from "./support/stores.js";

const stores = storeFactory();
afterEach(() => stores.cleanup());

describe.each([
  ["sqlite", (options: StoreOptions) => stores.sqlite(options)],
  ["postgres", (options: StoreOptions) => stores.postgres(options)],
  ["markdown", (options: StoreOptions) => stores.markdown(options)],
] as const)("collections on %s through the facade", (_name, open) => {
  async function setUp() {
    const embedder = countingEmbedder();
    const memory = open({ embedder: embedder.provider });
    const root = stores.tempDir();
    writeStandardNotes(root);
    await addCollection(memory, { name: "notes", path: root });
    const [report] = await syncCollections(memory);
    return { memory, root, embedder, report: report! };
  }

  it("indexes the notes, and recall returns fragments with their source and title", async () => {
    const { memory, root, report } = await setUp();
    expect(report).toMatchObject({ collection: "notes", notes: 3, added: 3, problems: [] });
    const [hit] = await memory.recall("hot cache stale write", {
      limit: 1,
      minScore: 0,
      mode: "bm25",
    });
    expect(hit?.category).toBe("notes");
    expect(hit?.source).toMatchObject({
      collection: "notes",
      path: "decisions/0007-cache.md",
      title: "Cache invalidation decision",
      contentType: "decision",
    });
    const lines = readFileSync(path.join(root, "decisions/0007-cache.md"), "utf8").split("\n");
    const { startLine, endLine } = hit!.source!;
    expect(hit?.content).toBe(lines.slice(startLine - 1, endLine).join("\n"));
    expect(hit?.createdAt).toBe("2025-03-04T09:00:00.000Z");
    const research = await memory.recall("pgvector sqlite-vec flat scan", {
      limit: 1,
      minScore: 0,
      mode: "bm25",
    });
    expect(research[0]?.source).toMatchObject({
      title: "Vector databases compared",
      contentType: "research",
    });
    const plain = await memory.recall("ficus", { limit: 10, minScore: 0, mode: "bm25" });
    expect(plain.map((entry) => entry.source?.path)).toEqual(["ficus.md"]);
    expect(plain[0]?.source?.title).toBe("ficus");
  });

  it("searches memory and collections together unless told otherwise", async () => {
    const { memory } = await setUp();
    await memory.store({ key: "fact", content: "The ficus plant sits on the kitchen window" });
    const both = await memory.recall("ficus plant", { limit: 5, minScore: 0, mode: "bm25" });
    expect(both.map((entry) => entry.key).sort()).toEqual(
      ["collection:notes:ficus.md#L1-1", "fact"].sort(),
    );
    const memoryOnly = await memory.recall("ficus plant", {
      limit: 5,
      minScore: 0,
      mode: "bm25",
      collections: false,
    });
    expect(memoryOnly.map((entry) => entry.key)).toEqual(["fact"]);
    const chosen = await memory.recall("ficus plant", {
      limit: 5,
      minScore: 0,
      mode: "bm25",
      collections: ["other"],
    });
    expect(chosen.map((entry) => entry.key)).toEqual(["fact"]);
    const byCategory = await memory.recall("ficus plant", {
      limit: 5,
      minScore: 0,
      mode: "bm25",
      categories: ["notes"],
    });
    expect(byCategory.map((entry) => entry.key)).toEqual(["collection:notes:ficus.md#L1-1"]);
    // A custom category: no exact category filter exists, the ranked results are filtered.
    await memory.store({
      key: "feed",
      content: "Feed the ficus plant in spring",
      category: "garden",
    });
    const withCustom = await memory.recall("ficus plant", {
      limit: 5,
      minScore: 0,
      mode: "bm25",
      collections: false,
    });
    expect(withCustom.map((entry) => entry.key).sort()).toEqual(["fact", "feed"]);
    const otherNamespace = await memory.recall("ficus plant", {
      namespace: "elsewhere",
      minScore: 0,
      mode: "bm25",
    });
    expect(otherNamespace).toEqual([]);
  });

  it("refuses store and forget of a fragment with an error that says to edit the file", async () => {
    const { memory } = await setUp();
    const key = "collection:notes:ficus.md#L1-1";
    for (const attempt of [
      () => memory.store({ key, content: "changed" }),
      () => memory.forget(key),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
      expect((error as Error).message).toContain("edit or delete that file");
      expect((error as Error).message).toContain("ficus.md");
    }
    expect((await memory.get(key))?.content).toContain("ficus");
  });

  it("re-indexes an edited note, never re-embeds an unchanged one, and drops a deleted one", async () => {
    const { memory, root, embedder } = await setUp();
    const before = embedder.documents;
    const [unchanged] = await syncCollections(memory);
    expect(unchanged).toMatchObject({ unchanged: 3, added: 0, changed: 0 });
    expect(unchanged?.fragments.written).toBe(0);
    expect(embedder.documents).toBe(before);

    writeFileSync(
      path.join(root, "ficus.md"),
      "Remember to water the orchid every Tuesday evening after the choir rehearsal ends.\n",
    );
    const [edited] = await syncCollections(memory);
    expect(edited).toMatchObject({ changed: 1, unchanged: 2 });
    expect(embedder.documents).toBe(before + 1);
    expect(await memory.recall("Sunday garden market", { minScore: 0, mode: "bm25" })).toEqual([]);
    const orchid = await memory.recall("orchid choir rehearsal", {
      limit: 1,
      minScore: 0,
      mode: "bm25",
    });
    expect(orchid[0]?.source?.path).toBe("ficus.md");

    rmSync(path.join(root, "research/vector-db.md"));
    const [deleted] = await syncCollections(memory);
    expect(deleted).toMatchObject({ removed: 1, notes: 2 });
    expect(await memory.recall("pgvector sqlite-vec", { minScore: 0, mode: "bm25" })).toEqual([]);
    expect(await memory.count({ categories: ["notes"] })).toBe(
      (await memory.list({ categories: ["notes"], limit: 1000 })).length,
    );
  });

  it("keeps the embeddings of a renamed note (no provider call) and finds it at its new path", async () => {
    const { memory, root, embedder } = await setUp();
    const fragments = await memory.count({ categories: ["notes"] });
    const before = embedder.documents;
    renameSync(
      path.join(root, "decisions/0007-cache.md"),
      path.join(root, "decisions/0008-cache.md"),
    );
    const [renamed] = await syncCollections(memory);
    expect(renamed).toMatchObject({ added: 1, removed: 1 });
    expect(renamed?.fragments.reusedEmbeddings).toBe(renamed?.fragments.written);
    expect(renamed?.fragments.written).toBeGreaterThan(3);
    expect(embedder.documents).toBe(before);
    expect(await memory.count({ categories: ["notes"] })).toBe(fragments);
    const hits = await memory.recall("hot cache stale write", {
      limit: 3,
      minScore: 0,
      mode: "bm25",
    });
    expect(hits.map((entry) => entry.source?.path)).not.toContain("decisions/0007-cache.md");
    expect(hits[0]?.source?.path).toBe("decisions/0008-cache.md");
    const [vectorHit] = await memory.recall("invalidate namespace write facade", {
      limit: 1,
      minScore: 0,
      mode: "embedding",
    });
    expect(vectorHit?.source?.path).toBe("decisions/0008-cache.md");
  });

  it("removes the index, never the files, and leaves the memories alone", async () => {
    const { memory, root } = await setUp();
    await memory.store({ key: "fact", content: "The ficus plant sits on the kitchen window" });
    const removed = await removeCollection(memory, "notes");
    expect(removed.deleted).toBeGreaterThan(3);
    expect(await memory.count({ categories: ["notes"] })).toBe(0);
    expect(await memory.count()).toBe(1);
    expect(readFileSync(path.join(root, "decisions/0007-cache.md"), "utf8")).toBe(DECISION);
    expect(await listCollections(memory)).toEqual([]);
  });
});

describe("collections in the memory context", () => {
  it("names a note by its path, lines and title", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    writeStandardNotes(root);
    await addCollection(memory, { name: "notes", path: root });
    await syncCollections(memory);
    const context = await buildMemoryContext(
      memory,
      "How do we handle the hot cache after a write?",
    );
    expect(context.text).toMatch(/- \[notes \d{4}-\d{2}-\d{2}\] decisions\/0007-cache\.md:/);
    expect(context.text).toContain('"Cache invalidation decision": ');
  });
});
