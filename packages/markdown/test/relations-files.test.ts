import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMarkdownMemory, type MarkdownMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

const open: MarkdownMemory[] = [];
function memory(root: string): MarkdownMemory {
  const created = createMarkdownMemory({ root, index: false, logger: () => {} });
  open.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

describe("relations in the files", () => {
  it("keeps an entry's outgoing edges in its line's metadata comment, readable by a new instance", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "cause", content: "The disk filled up" });
    await m.store({ key: "effect", content: "The backup failed" });
    const before = readFileSync(join(root, "MEMORY.md"), "utf8");
    await m.relate("cause", "effect", "causes", { weight: 0.8, metadata: { note: "-->" } });
    const text = readFileSync(join(root, "MEMORY.md"), "utf8");
    const causeLine = text.split("\n").find((line) => line.startsWith("- **cause**"))!;
    expect(causeLine).toContain('"relations":[{"to":"effect","type":"causes","weight":0.8');
    // Only the source's line changed; the target's line is byte for byte the same.
    const effectLine = (source: string) =>
      source.split("\n").find((line) => line.startsWith("- **effect**"));
    expect(effectLine(text)).toBe(effectLine(before));
    expect(await memory(root).relations("effect")).toMatchObject([
      { from: "cause", to: "effect", weight: 0.8, metadata: { note: "-->" } },
    ]);
    // get/list never carry the edges on the entry itself.
    expect((await m.get("cause"))!.relations).toBeUndefined();
    expect((await m.list()).every((entry) => entry.relations === undefined)).toBe(true);
  });

  it("does not return an edge whose target line a person deleted; forget() rewrites the sources", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "cause", content: "The disk filled up" });
    await m.store({ key: "effect", content: "The backup failed" });
    await m.relate("cause", "effect", "causes");
    const path = join(root, "MEMORY.md");
    const edited = readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => !line.startsWith("- **effect**"))
      .join("\n");
    writeFileSync(path, edited);
    const fresh = memory(root);
    expect(await fresh.relations("cause")).toEqual([]);
    // forget() (unlike a hand edit) also rewrites the lines that point at the forgotten entry.
    await fresh.store({ key: "effect", content: "stored again" });
    expect(readFileSync(path, "utf8")).toContain('"to":"effect"');
    await fresh.forget("effect");
    expect(readFileSync(path, "utf8")).not.toContain('"to":"effect"');
    await fresh.store({ key: "effect", content: "and again" });
    expect(await fresh.relations("effect")).toEqual([]);
  });
});
