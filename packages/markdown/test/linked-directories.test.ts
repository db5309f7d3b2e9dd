import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { MemoryError } from "@memory/api";
import { afterEach, describe, expect, it } from "vitest";
import { createMarkdownMemory, type MarkdownMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

const open: MarkdownMemory[] = [];
function memory(root: string, index = false): MarkdownMemory {
  const created = createMarkdownMemory({ root, index, logger: () => {} });
  open.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

/** Namespace b's daily log, and namespace a's memory/ folder linked to b's. */
async function linkedTree() {
  const root = tempDir();
  await memory(root).store({
    key: "plan",
    content: "tenant b's launch plan",
    category: "daily",
    namespace: "b",
  });
  mkdirSync(join(root, "namespaces", "a"), { recursive: true });
  symlinkSync(join(root, "namespaces", "b", "memory"), join(root, "namespaces", "a", "memory"));
  return root;
}

describe("linked directories inside the tree", () => {
  for (const index of [false, true]) {
    it(`never shows another namespace's entries through a linked memory/ folder (index ${index})`, async () => {
      const m = memory(await linkedTree(), index);
      expect(await m.recall("launch plan", { namespace: "a", minScore: 0 })).toEqual([]);
      expect(await m.list({ namespace: "a" })).toEqual([]);
      expect(await m.get("plan", { namespace: "a" })).toBeNull();
      expect((await m.get("plan", { namespace: "b" }))?.content).toBe("tenant b's launch plan");
    });
  }

  it("refuses to write through a linked folder, leaving the other namespace's files as they were", async () => {
    const root = await linkedTree();
    const folder = join(root, "namespaces", "b", "memory");
    const [file] = readdirSync(folder);
    const before = readFileSync(join(folder, file!), "utf8");
    const error = await memory(root)
      .store({ key: "note", content: "tenant a", category: "daily", namespace: "a" })
      .catch((caught) => caught);
    expect(MemoryError.hasCode(error, "CONFLICT")).toBe(true);
    expect((error as Error).message).toMatch(/namespaces\/a\/memory is a symbolic link/);
    expect(readdirSync(folder)).toEqual([file]);
    expect(readFileSync(join(folder, file!), "utf8")).toBe(before);
  });
});
