import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMarkdownMemory } from "../src/index.js";
import { tempDir, waitFor } from "./helpers.js";

describe("watcher", () => {
  it("re-reads and re-indexes a file saved in an editor, without any operation asking", async () => {
    const root = tempDir();
    const synced: string[][] = [];
    const memory = createMarkdownMemory({
      root,
      watch: true,
      watchDebounceMs: 200,
      logger: () => {},
      onWatch: (event) => {
        if (event.type === "synced") synced.push(event.paths);
      },
    });
    try {
      await memory.store({ key: "a", content: "alpha" });
      await waitFor(
        () => synced.some((paths) => paths.length === 0) || synced.length > 0,
        60_000,
        "the store's own change event",
      );
      synced.length = 0;
      const file = join(root, "MEMORY.md");
      writeFileSync(
        file,
        `${readFileSync(file, "utf8")}\n## Kayaks\n\nThe user owns two kayaks.\n`,
      );
      // The watcher (not a recall) re-reads the file: wait for its report, with a long bound.
      await waitFor(
        () => synced.some((paths) => paths.includes("MEMORY.md")),
        60_000,
        "the watcher",
      );
      expect(await memory.indexStatus()).toMatchObject({ current: true });
      const [hit] = await memory.recall("kayaks");
      expect(hit?.key).toBe("MEMORY.md#kayaks");
    } finally {
      await memory.close();
    }
  });
});
