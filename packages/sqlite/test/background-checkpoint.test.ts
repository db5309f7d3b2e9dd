import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "@memory/core";
import { describe, expect, it } from "vitest";
import {
  createMemoryFromConfig,
  createSqliteMemory,
  sqliteOptionsFromConfig,
} from "../src/index.js";
import { tempDbPath, tempDir } from "./helpers.js";

const sizeOf = (file: string) => statSync(file).size;

/** Waits, polling, until `done` holds; fails after `ms` (a bound for a loaded machine). */
async function eventually(done: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// 10 entries of about 2 KB: some 200 pages in the WAL, far below SQLite's own threshold of
// 1,000, so only the thread copies them into the database file before close.
const entries = Array.from({ length: 10 }, (_, i) => ({
  key: `note-${i}`,
  content: `Note ${i}: ${"the user keeps a garden of tomatoes and basil on the balcony ".repeat(32)}`,
}));

describe("sqlite: checkpoints on a thread of their own (checkpoint = background)", () => {
  it("copies committed pages into the database file while the memory stays open", async () => {
    const path = tempDbPath();
    const memory = createSqliteMemory({ path, checkpoint: "background", logger: () => {} });
    await memory.store({ key: "first", content: "The user likes green tea" });
    const before = sizeOf(path);
    for (const entry of entries) await memory.store(entry);
    await eventually(() => sizeOf(path) > before + 10 * 2048);
    expect((await memory.get("note-9"))?.content).toBe(entries[9]!.content);
    await memory.close();
    // Both connections closed (the thread's first): the last one removed the WAL.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = createSqliteMemory({ path, logger: () => {} });
    expect(await reopened.count()).toBe(11);
    await reopened.close();
  });

  it("is memory.toml's default, and a wrong value is a ConfigError naming both", async () => {
    const base = defaultConfig();
    const config = { ...base, memory: { ...base.memory, data_dir: tempDir() } };
    expect(sqliteOptionsFromConfig(config).checkpoint).toBe("background");
    expect(
      sqliteOptionsFromConfig({ ...config, sqlite: { checkpoint: "inline" } }).checkpoint,
    ).toBe("inline");
    expect(() =>
      createMemoryFromConfig({ ...config, sqlite: { checkpoint: "often" } }, {}),
    ).toThrow(/\[sqlite\]\.checkpoint must be "background".*"inline", got "often"/);
    const memory = createMemoryFromConfig(config, {});
    await memory.store({ key: "k", content: "v" });
    await memory.close();
    expect(existsSync(join(config.memory.data_dir, "memory", "brain.db-wal"))).toBe(false);
  });

  // Before: close() awaited an unreferenced thread, so a program whose last work was closing
  // the memory (every CLI command) ended mid-await with exit code 13.
  it("lets a program end normally after closing the memory", () => {
    const path = tempDbPath();
    const program = `
      import { createSqliteMemory } from "@memory/sqlite";
      const memory = createSqliteMemory({ path: ${JSON.stringify(path)}, checkpoint: "background" });
      await memory.store({ key: "k", content: "The user likes green tea" });
      await memory.close();
      console.log("closed");`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", program], {
      cwd: import.meta.dirname,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe("closed");
  });
});
