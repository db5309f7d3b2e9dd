import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileBackedOf, MemoryClosedError } from "@memory/api";
import { createInMemoryDriver, createMemoryFacade, type InMemoryDriver } from "@memory/core";
import { createTestEmbedder } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { createMarkdownMemory, MarkdownDriver } from "../src/index.js";
import { tempDir } from "./helpers.js";

const CONFLICTS = { conflictMode: "combined" } as const;

describe("the Markdown driver under the facade", () => {
  it.each([false, true])(
    "writes a conflict-checked store and its supersession as ONE rewrite, or neither (index %s)",
    async (index) => {
      const root = tempDir();
      let rewrites = 0;
      let failing = false;
      await using memory = createMarkdownMemory({
        root,
        index,
        logger: () => {},
        ...CONFLICTS,
        beforeCommit: () => {
          rewrites++;
          if (failing) throw new Error("disk full (simulated)");
        },
      });
      await memory.store({ key: "diet-1", content: "The user is vegetarian" });
      const before = readFileSync(join(root, "MEMORY.md"), "utf8");
      failing = true;
      await expect(
        memory.store({ key: "diet-2", content: "The user is not vegetarian" }),
      ).rejects.toThrow(/disk full/);
      expect(readFileSync(join(root, "MEMORY.md"), "utf8")).toBe(before);
      // No temporary file of the failed rewrite is left beside the memory files.
      expect(readdirSync(root).filter((name) => name.endsWith(".tmp"))).toEqual([]);
      expect(await memory.get("diet-2")).toBeNull();
      expect((await memory.get("diet-1"))!.supersededBy).toBeUndefined();
      failing = false;
      rewrites = 0;
      const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
      expect(newer.conflict!.superseded).toEqual(["diet-1"]);
      expect((await memory.get("diet-1"))!.supersededBy).toBe("diet-2");
      expect(rewrites).toBe(1);
    },
  );

  it("embeds a conflict-checked store's text once, and the index keeps its vector", async () => {
    const embedder = createTestEmbedder({ dimensions: 64 });
    await using memory = createMarkdownMemory({
      root: tempDir(),
      embedder,
      logger: () => {},
      ...CONFLICTS,
    });
    await memory.store({ key: "editor-1", content: "The user's favourite editor is Vim" });
    const before = embedder.calls;
    const newer = await memory.store({
      key: "editor-2",
      content: "The user's favourite editor is now Neovim",
    });
    expect(newer.conflict!.superseded).toEqual(["editor-1"]);
    expect(embedder.calls - before).toBe(1);
    expect((await memory.get("editor-2", { withEmbedding: true }))!.embedding).toHaveLength(64);
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(0);
  });

  it("never asks the provider for vectors it cannot store (no index)", async () => {
    const embedder = createTestEmbedder({ dimensions: 64 });
    await using memory = createMarkdownMemory({ root: tempDir(), index: false, embedder });
    await memory.store({ key: "a", content: "The user sails on weekends" });
    expect(embedder.calls).toBe(0);
    expect((await memory.recall("sails"))[0]!.key).toBe("a");
    expect((await memory.healthCheck()).vector).toMatchObject({
      status: "degraded",
      reason: expect.stringMatching(/index is off/),
    });
  });

  it("declares the file-backed extension; a backend without files has none", async () => {
    const root = tempDir();
    await using memory = createMarkdownMemory({ root, index: false });
    expect(memory.capabilities.fileBacked).toBe(true);
    await memory.store({ key: "a", content: "alpha" });
    await memory.store({ key: "b", content: "beta", category: "boats" });
    const files = fileBackedOf(memory)!;
    expect((await files.listFiles()).map((file) => [file.path, file.problems])).toEqual([
      ["MEMORY.md", 0],
      ["memory/boats.md", 0],
    ]);
    expect((await files.readSegment({ path: "memory/boats.md" })).text).toContain("**b**");
    await using plain = createMemoryFacade(createInMemoryDriver());
    expect(fileBackedOf(plain)).toBeUndefined();
    await memory.close();
    await expect(files.listFiles()).rejects.toBeInstanceOf(MemoryClosedError);
  });

  it("recalls through whatever index driver it is given (here the in-memory one)", async () => {
    const root = tempDir();
    let index: InMemoryDriver | undefined;
    const driver = new MarkdownDriver({
      root,
      openIndex: () => {
        index = createInMemoryDriver();
        return index;
      },
    });
    await using memory = createMemoryFacade(driver, { logger: () => {} });
    await memory.store({ key: "kayak", content: "The user owns a red kayak" });
    const [hit] = await memory.recall("kayak", { mode: "bm25" });
    expect(hit).toMatchObject({ key: "kayak", source: { path: "MEMORY.md", startLine: 3 } });
    // The index holds the file's row, under the file's id.
    const [indexed] = await index!.read([{ namespace: "default", key: "kayak" }]);
    expect(indexed!.id).toBe(hit!.id);
  });
});
