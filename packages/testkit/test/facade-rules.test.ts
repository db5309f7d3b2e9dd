import { InvalidInputError, type WriteBatch, type WriteResult } from "@memory/api";
import { createMemoryFacade, InMemoryDriver, LIST_LIMIT_MAX } from "@memory/core";
import { describe, expect, it } from "vitest";
import { caught } from "../src/fixture.js";
import { createTestEmbedder } from "../src/test-embedder.js";

/** An in-memory driver whose write batches fail once `failing` is set (a full disk, say). */
class FailingDriver extends InMemoryDriver {
  failing = false;
  batches: WriteBatch[] = [];
  override async write(batch: WriteBatch): Promise<WriteResult> {
    this.batches.push(batch);
    if (this.failing) throw new Error("disk full");
    return super.write(batch);
  }
}

const CONFLICTS = { conflictMode: "combined" } as const;

describe("the facade of @memory/core: rules that used to drift between backends", () => {
  it("ranks a core entry without importance at the core base (0.7) in topCore, not last", async () => {
    await using memory = createMemoryFacade(new InMemoryDriver());
    await memory.store({ key: "low", content: "low", importance: 0.2 });
    await memory.store({ key: "unset", content: "unset" });
    await memory.store({ key: "high", content: "high", importance: 0.9 });
    await memory.store({ key: "base", content: "base", importance: 0.7 });
    const keys = (await memory.topCore(10)).map((entry) => entry.key);
    // Equal importance (0.7): the most recently updated first.
    expect(keys).toEqual(["high", "base", "unset", "low"]);
  });

  it("caps list at LIST_LIMIT_MAX instead of failing on a larger limit", async () => {
    await using memory = createMemoryFacade(new InMemoryDriver());
    await memory.store({ key: "a", content: "a" });
    expect(LIST_LIMIT_MAX).toBe(1_000_000);
    expect(await memory.list({ limit: Number.MAX_SAFE_INTEGER })).toHaveLength(1);
  });

  it("reports a bad offset as offset, not as limit", async () => {
    await using memory = createMemoryFacade(new InMemoryDriver());
    for (const offset of [-1, 1.5, "2"]) {
      const error = await caught(() => memory.list({ offset: offset as number }));
      expect(InvalidInputError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/^offset must be an integer >= 0/);
    }
  });

  it("has one wording for self-supersession, before looking the entry up", async () => {
    await using memory = createMemoryFacade(new InMemoryDriver());
    const error = await caught(() => memory.markSuperseded("a", "a"));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'An entry cannot supersede itself ("a"): pass the key of the newer entry as newKey.',
    );
  });
});

describe("store with conflict detection is one unit of work", () => {
  it("sends the entry and its supersessions as ONE batch: a failing batch leaves neither", async () => {
    const driver = new FailingDriver();
    await using memory = createMemoryFacade(driver, {
      embedder: createTestEmbedder({ dimensions: 256 }),
      settings: CONFLICTS,
    });
    await memory.store({ key: "diet-1", content: "The user is vegetarian" });
    driver.failing = true;
    driver.batches = [];
    await expect(
      memory.store({ key: "diet-2", content: "The user is not vegetarian" }),
    ).rejects.toThrow("disk full");
    // The one batch held both the new entry and the supersession it decided.
    expect(driver.batches).toHaveLength(1);
    expect(driver.batches[0]!.upserts.map((upsert) => upsert.entry.key)).toEqual(["diet-2"]);
    // With why (the supersession record) in the same batch, and the new entry's decision record.
    expect(driver.batches[0]!.supersessions).toMatchObject([
      {
        namespace: "default",
        key: "diet-1",
        supersededBy: "diet-2",
        record: { by: "diet-2", decidedBy: "rules", rule: "negated" },
      },
    ]);
    expect(driver.batches[0]!.upserts[0]!.entry.conflictRecord).toMatchObject({
      superseded: ["diet-1"],
    });
    driver.failing = false;
    expect(await memory.get("diet-2")).toBeNull();
    expect((await memory.get("diet-1"))!.supersededBy).toBeUndefined();
    // And when the batch succeeds, both happen.
    const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
    expect(newer.conflict!.superseded).toEqual(["diet-1"]);
    expect((await memory.get("diet-1"))!.supersededBy).toBe("diet-2");
  });

  it("embeds the text of a conflict-checked store once (the document vector is the query vector)", async () => {
    const embedder = createTestEmbedder({ dimensions: 256 });
    await using memory = createMemoryFacade(new InMemoryDriver(), {
      embedder,
      settings: CONFLICTS,
    });
    await memory.store({ key: "editor-1", content: "The user's favourite editor is Vim" });
    const before = embedder.calls;
    const newer = await memory.store({
      key: "editor-2",
      content: "The user's favourite editor is now Neovim",
    });
    expect(newer.conflict!.superseded).toEqual(["editor-1"]);
    // The candidates were found with vectors (a cosine was measured), from one embedding.
    expect(newer.conflict!.candidates[0]!.cosine).toBeGreaterThan(0);
    expect(embedder.calls - before).toBe(1);
  });
});
