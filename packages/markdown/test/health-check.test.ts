import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

describe("healthCheck", () => {
  it("reports a root that does not exist yet instead of creating it", async () => {
    for (const index of [false, true]) {
      const root = join(tempDir(), "not-yet");
      const m = memory(root, index);
      const report = await m.healthCheck();
      expect(existsSync(root), `index ${index}`).toBe(false);
      expect(report).toMatchObject({
        ok: true,
        storage: { writable: true },
        entries: 0,
        details: { root, exists: false },
      });
      expect(String(report.details.note)).toMatch(/does not exist yet.*first write/);
      await m.store({ key: "k", content: "v" });
      expect((await m.healthCheck()).details).toMatchObject({ exists: true, files: 1 });
    }
  });

  it("reports a root that cannot be created as not writable", async () => {
    const parent = tempDir();
    writeFileSync(join(parent, "file"), "not a directory");
    const root = join(parent, "file", "tree");
    const report = await memory(root).healthCheck();
    expect(report.ok).toBe(false);
    expect(report.storage?.writable).toBe(false);
    expect(report.storage?.reason).toMatch(/not a directory/);
  });
});
