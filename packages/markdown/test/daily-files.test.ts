import { mkdirSync, writeFileSync } from "node:fs";
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

describe("daily log files", () => {
  it("reads memory/2026-03-28-1442.md as that day's log, not as a custom category", async () => {
    const root = tempDir();
    mkdirSync(join(root, "memory"));
    writeFileSync(
      join(root, "memory", "2026-03-28-1442.md"),
      "# Session\n\n- **standup**: Moved the launch to Friday\n- **turn-1**: [Conversation] User: hi\n",
    );
    writeFileSync(join(root, "memory", "2026-03-29_09-05.md"), "- **retro**: Went well\n");
    const m = memory(root);
    expect(await m.get("standup")).toMatchObject({
      category: "daily",
      createdAt: "2026-03-28T14:42:00.000Z",
    });
    expect((await m.get("turn-1"))?.category).toBe("conversation");
    expect(await m.get("retro")).toMatchObject({
      category: "daily",
      createdAt: "2026-03-29T09:05:00.000Z",
    });
    expect(await m.problems()).toEqual([]);
  });

  it("keeps a custom category named like a dated log in its own file", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "k", content: "custom", category: "2026-03-28-1442" });
    expect((await memory(root).get("k"))?.category).toBe("2026-03-28-1442");
  });
});
