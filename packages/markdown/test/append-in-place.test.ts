import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createMarkdownMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

const TODAY = "2026-11-24";
const DAILY = `memory/${TODAY}.md`;
const at = (time: string) => `${TODAY}T${time}.000Z`;
const daily = (key: string, content: string, time = "09:00:00") => ({
  key,
  content,
  category: "daily",
  createdAt: at(time),
  updatedAt: at(time),
});

describe("a new entry at the end of a file is appended in place", () => {
  it.each([false, true])(
    "keeps the earlier bytes and the file itself, and reads the same in a fresh instance (index %s)",
    async (index) => {
      const root = tempDir();
      await using memory = createMarkdownMemory({ root, index, logger: () => {} });
      await memory.importEntries([daily("a", "The user sails"), daily("b", "The user rows")]);
      const file = join(root, DAILY);
      const before = readFileSync(file);
      const inode = statSync(file).ino;
      await memory.importEntries([daily("c", "The user swims", "10:00:00")]);
      const after = readFileSync(file);
      // Appended, not replaced: same inode, the old bytes untouched, one line more.
      expect(statSync(file).ino).toBe(inode);
      expect(after.subarray(0, before.length).equals(before)).toBe(true);
      expect(after.subarray(before.length).toString("utf8")).toMatch(
        /^- \*\*c\*\*: The user swims <!-- memory .* -->\n$/,
      );
      await using fresh = createMarkdownMemory({ root, index, logger: () => {} });
      expect((await fresh.list({ limit: 10 })).map((entry) => entry.key).sort()).toEqual([
        "a",
        "b",
        "c",
      ]);
      expect((await fresh.recall("swims", { mode: "bm25" }))[0]?.key).toBe("c");
      expect(await fresh.problems()).toEqual([]);
    },
  );

  it("ends a hand-written last line first and appends with the file's own line breaks", async () => {
    const root = tempDir();
    mkdirSync(join(root, "memory"), { recursive: true });
    const file = join(root, DAILY);
    const handWritten = `# Daily log ${TODAY}\r\n\r\n- **a**: first <!-- memory {"id":"00000000-0000-4000-8000-000000000001","createdAt":"${at("08:00:00")}","updatedAt":"${at("08:00:00")}"} -->`;
    writeFileSync(file, handWritten);
    await using memory = createMarkdownMemory({ root, logger: () => {} });
    await memory.importEntries([daily("b", "second")]);
    await memory.importEntries([daily("c", "third")]);
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(`${handWritten}\r\n- **b**: second <!-- memory `)).toBe(true);
    expect(text).toMatch(/ -->\r\n- \*\*c\*\*: third <!-- memory .* -->\r\n$/);
    expect(text.replaceAll("\r\n", "")).not.toContain("\n");
    await using fresh = createMarkdownMemory({ root, logger: () => {} });
    expect((await fresh.list({ limit: 10 })).map((entry) => entry.key).sort()).toEqual([
      "a",
      "b",
      "c",
    ]);
  });

  it("rewrites a file holding free text (its chunks' lines and times may move) and recalls both", async () => {
    const root = tempDir();
    mkdirSync(join(root, "memory"), { recursive: true });
    const file = join(root, DAILY);
    writeFileSync(file, `# Daily log ${TODAY}\n\nNotes about the kayak trip to the fjord.\n`);
    const inode = statSync(file).ino;
    await using memory = createMarkdownMemory({ root, logger: () => {} });
    await memory.importEntries([daily("tent", "The user bought a tent")]);
    expect(statSync(file).ino).not.toBe(inode);
    expect((await memory.recall("kayak fjord", { mode: "bm25" }))[0]?.key).toMatch(/#/);
    expect((await memory.recall("tent", { mode: "bm25" }))[0]?.key).toBe("tent");
  });

  it("cuts off a line that a process killed while appending left in part, and keeps a whole one", async () => {
    const root = tempDir();
    const file = join(root, DAILY);
    {
      await using memory = createMarkdownMemory({ root, logger: () => {} });
      await memory.importEntries([daily("a", "The user sails")]);
    }
    // What a process killed in the middle of an append leaves: its intent, half a line.
    const from = statSync(file).size;
    const half = "- **b**: The user ro";
    appendFileSync(file, half);
    writeFileSync(
      join(root, ".memory-state", "append.json"),
      JSON.stringify({ path: DAILY, ino: statSync(file).ino, from, to: from + 120 }),
    );
    {
      await using memory = createMarkdownMemory({ root, logger: () => {} });
      await memory.importEntries([daily("c", "The user swims")]);
      expect((await memory.list({ limit: 10 })).map((entry) => entry.key).sort()).toEqual([
        "a",
        "c",
      ]);
      expect(await memory.problems()).toEqual([]);
    }
    expect(readFileSync(file, "utf8")).not.toContain(half);
    // A line written whole before the process died stays: it was written, only not acknowledged.
    const whole = readFileSync(file, "utf8").split("\n").at(-2) as string;
    const size = statSync(file).size;
    writeFileSync(
      join(root, ".memory-state", "append.json"),
      JSON.stringify({
        path: DAILY,
        ino: statSync(file).ino,
        from: size - whole.length - 1,
        to: size,
      }),
    );
    await using memory = createMarkdownMemory({ root, logger: () => {} });
    await memory.importEntries([daily("d", "The user runs")]);
    expect((await memory.list({ limit: 10 })).map((entry) => entry.key).sort()).toEqual([
      "a",
      "c",
      "d",
    ]);
  });

  it("leaves the index current after appends: a fresh instance finds nothing stale", async () => {
    const root = tempDir();
    {
      await using memory = createMarkdownMemory({ root, watch: true, logger: () => {} });
      for (const key of ["a", "b", "c"])
        await memory.store({ key, content: `The user likes ${key}` });
      await memory.importEntries([daily("d", "The user sails")]);
    }
    await using fresh = createMarkdownMemory({ root, logger: () => {} });
    // The hashes the index recorded were extended append by append: they are the files'.
    expect(await fresh.indexStatus()).toEqual({ enabled: true, current: true, stale: [] });
    const db = new Database(join(root, ".memory-state", "index.db"), { readonly: true });
    const rows = db.prepare("SELECT count(*) AS n FROM markdown_rows").get() as { n: number };
    db.close();
    expect(rows.n).toBe(4);
  });

  it("rebuilds an index made when each file's rows were one JSON, forgetting what the files lost", async () => {
    const root = tempDir();
    {
      await using memory = createMarkdownMemory({ root, logger: () => {} });
      await memory.store({ key: "kept", content: "The user sails" });
      await memory.store({ key: "gone", content: "The user sails too" });
    }
    // The previous layout, and the files changed behind it (an entry removed by hand).
    const db = new Database(join(root, ".memory-state", "index.db"));
    db.exec(
      "DROP TABLE markdown_rows; DROP TABLE markdown_files; CREATE TABLE markdown_files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, rows TEXT NOT NULL)",
    );
    db.close();
    const file = join(root, "MEMORY.md");
    writeFileSync(
      file,
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => !line.startsWith("- **gone**"))
        .join("\n"),
    );
    await using memory = createMarkdownMemory({ root, logger: () => {} });
    const found = await memory.recall("sails", { mode: "bm25", minScore: 0 });
    expect(found.map((entry) => entry.key)).toEqual(["kept"]);
    expect(await memory.indexStatus()).toMatchObject({ current: true });
  });

  it("reads only the lines another instance appended, and a changed file whole", async () => {
    const root = tempDir();
    await using writer = createMarkdownMemory({ root, logger: () => {} });
    await using reader = createMarkdownMemory({ root, logger: () => {} });
    await writer.importEntries([daily("a", "The user sails")]);
    expect((await reader.list({ limit: 10 })).map((entry) => entry.key)).toEqual(["a"]);
    await writer.importEntries([daily("b", "The user rows", "10:00:00")]);
    expect((await reader.list({ limit: 10 })).map((entry) => entry.key).sort()).toEqual(["a", "b"]);
    expect((await reader.recall("rows", { mode: "bm25" }))[0]?.key).toBe("b");
    // An edit of an earlier line that also makes the file longer is no append: read whole.
    const file = join(root, DAILY);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace("The user sails", "The user sails a long boat"),
    );
    const sails = await reader.get("a");
    expect(sails?.content).toBe("The user sails a long boat");
    expect(await reader.indexStatus()).toMatchObject({ current: true });
  });
});
