import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemoryError, validateContent, validateKey } from "@memory/api";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createMarkdownMemory, type MarkdownMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

const open: MarkdownMemory[] = [];
function memory(root: string, index = false, now?: () => number): MarkdownMemory {
  const created = createMarkdownMemory({ root, index, logger: () => {}, ...(now ? { now } : {}) });
  open.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

const read = (root: string, path: string) => readFileSync(join(root, path), "utf8");

describe("layout", () => {
  it("writes core to MEMORY.md, daily and conversation to the day's file, custom categories to their file", async () => {
    const root = tempDir();
    const m = memory(root);
    const core = await m.store({ key: "editor", content: "Uses Neovim" });
    await m.store({ key: "log", content: "Worked on the parser", category: "daily" });
    await m.store({ key: "turn-1", content: "User: hi", category: "conversation" });
    await m.store({ key: "deploy", content: "Friday freeze", category: "ops-notes" });
    await m.store({ key: "x", content: "other tenant", namespace: "Team A/ü" });
    const day = core.createdAt.slice(0, 10);
    expect(read(root, "MEMORY.md")).toMatch(
      /^# Long-term memory\n\n- \*\*editor\*\*: Uses Neovim <!-- memory \{"id":/,
    );
    const daily = read(root, `memory/${day}.md`);
    expect(daily).toMatch(/- \*\*log\*\*: Worked on the parser <!--/);
    expect(daily).toMatch(/- \*\*turn-1\*\*: \[Conversation\] User: hi <!--/);
    expect(read(root, "memory/ops-notes.md")).toMatch(/- \*\*deploy\*\*: Friday freeze/);
    expect(read(root, "namespaces/%54eam%20%41%2F%C3%BC/MEMORY.md")).toMatch(/other tenant/);
    expect((await memory(root).get("turn-1"))?.category).toBe("conversation");
    expect((await memory(root).get("x", { namespace: "Team A/ü" }))?.content).toBe("other tenant");
  });
});

describe("category files", () => {
  it("keeps categories that differ by case, or look like a date, apart and readable", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "a", content: "lower", category: "notes" });
    await m.store({ key: "b", content: "upper", category: "Notes" });
    await m.store({ key: "c", content: "date-like", category: "2026-01-01" });
    await m.store({ key: "d", content: "daily", category: "daily" });
    expect(read(root, "memory/notes.md")).toMatch(/lower/);
    expect(read(root, "memory/%4Eotes.md")).toMatch(/upper/);
    expect(read(root, "memory/%32026-01-01.md")).toMatch(/date-like/);
    const fresh = memory(root);
    expect((await fresh.get("a"))?.category).toBe("notes");
    expect((await fresh.get("b"))?.category).toBe("Notes");
    expect((await fresh.get("c"))?.category).toBe("2026-01-01");
    expect((await fresh.get("d"))?.category).toBe("daily");
  });
});

describe("round trip through the files", () => {
  it("reads back every stored value byte for byte from a fresh instance", async () => {
    const root = tempDir();
    const writer = memory(root);
    const tricky = fc.constantFrom(
      "**",
      ": ",
      "#",
      "-->",
      "<!--",
      "\\",
      "\n",
      "\r\n",
      "\r",
      " ",
      "\t",
      "[Conversation] ",
      "- **k**: v",
      "\u2028",
      "\ufeff",
      "```",
    );
    const value = fc
      .array(fc.oneof(tricky, fc.string({ unit: "binary", maxLength: 8 })), {
        minLength: 1,
        maxLength: 10,
      })
      .map((parts) => parts.join("").replace(/\u0000/g, "0"));
    const ok = (check: (v: string) => unknown) => (v: string) => {
      try {
        check(v);
        return true;
      } catch {
        return false;
      }
    };
    const samples = fc.sample(
      fc.record({
        key: value.filter(ok(validateKey)),
        content: value.filter(ok(validateContent)),
        category: fc.constantFrom("core", "daily", "conversation", "custom_1"),
      }),
      { numRuns: 150, seed: 42 },
    );
    const expected = new Map<string, { content: string; category: string }>();
    for (const sample of samples) {
      await writer.store(sample);
      expected.set(sample.key, sample);
    }
    const reader = memory(root);
    for (const [key, sample] of expected) {
      const got = await reader.get(key);
      expect(got?.content).toBe(sample.content);
      expect(got?.category).toBe(sample.category);
    }
    expect(await reader.count()).toBe(expected.size);
    expect(await reader.problems()).toEqual([]);
  });
});

describe("hand-edited files", () => {
  const handWritten = [
    "# Notes",
    "",
    "Free text a person wrote, about the Lisbon trip in May.",
    "this line is garbage ]] <<< }}",
    "- **broken entry without end",
    "- **hand**: written by hand",
    "",
  ].join("\r\n");

  it("keeps garbage and hand-written lines verbatim (CRLF too) when entries are written, updated and forgotten", async () => {
    const root = tempDir();
    writeFileSync(join(root, "MEMORY.md"), handWritten);
    const m = memory(root);
    expect((await m.get("hand"))?.content).toBe("written by hand");
    await m.store({ key: "new", content: "appended" });
    await m.store({ key: "hand", content: "updated by the library" });
    let text = read(root, "MEMORY.md");
    expect(text.startsWith(handWritten.split("- **hand**")[0]!)).toBe(true);
    expect(text).toMatch(
      /\r\n- \*\*hand\*\*: updated by the library <!-- memory .* -->\r\n- \*\*new\*\*: appended <!-- memory .* -->\r\n- \*\*hand::history:1\*\*: written by hand <!-- memory .*"supersededBy":"hand".* -->\r\n$/,
    );
    expect(text).not.toMatch(/[^\r]\n/);
    await m.forget("new");
    // Forgetting a key forgets its kept versions too.
    await m.forget("hand");
    text = read(root, "MEMORY.md");
    expect(text).toBe(handWritten.replace("- **hand**: written by hand\r\n", ""));
    expect(await m.problems()).toEqual([
      { path: "MEMORY.md", line: 5, message: expect.stringMatching(/unreadable entry line/) },
    ]);
  });

  it("recalls free text as chunks with a stable key and file provenance", async () => {
    const root = tempDir();
    writeFileSync(join(root, "MEMORY.md"), handWritten);
    const m = memory(root);
    const [hit] = await m.recall("Lisbon trip");
    expect(hit?.key).toBe("MEMORY.md#notes");
    expect(hit?.source).toEqual({ path: "MEMORY.md", startLine: 3, endLine: 5 });
    expect(hit?.content).toMatch(/Lisbon trip in May/);
    expect(await m.count()).toBe(1); // chunks are not entries
  });

  it("opens a tree with an unreadable file and reports it instead of refusing", async () => {
    const root = tempDir();
    mkdirSync(join(root, "memory"));
    writeFileSync(join(root, "memory", "bad.md"), Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0x0a]));
    const m = memory(root);
    await m.store({ key: "ok", content: "still works" });
    expect((await m.problems()).map((p) => p.path)).toEqual(["memory/bad.md"]);
  });
});

describe("readSegment (memory_get)", () => {
  it("reads lines of a file of the tree", async () => {
    const root = tempDir();
    writeFileSync(join(root, "MEMORY.md"), "a\nb\nc\nd\n");
    const m = memory(root);
    expect(await m.readSegment({ path: "MEMORY.md", from: 2, lines: 2 })).toEqual({
      path: "MEMORY.md",
      namespace: "default",
      from: 2,
      to: 3,
      totalLines: 4,
      text: "b\nc",
    });
  });

  it("refuses paths outside the tree with typed errors", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, "secret.md"), "secret");
    mkdirSync(join(root, "memory"));
    symlinkSync(join(outside, "secret.md"), join(root, "memory", "link.md"));
    const m = memory(root);
    for (const path of [
      "../x.md",
      "/etc/passwd",
      "memory/../../x.md",
      "memory/link.md",
      "MEMORY.txt",
      ".memory-state/x.md",
    ]) {
      const error = await m.readSegment({ path }).catch((e) => e);
      expect(MemoryError.hasCode(error, "INVALID_INPUT"), path).toBe(true);
    }
    const missing = await m.readSegment({ path: "memory/none.md" }).catch((e) => e);
    expect(MemoryError.hasCode(missing, "NOT_FOUND")).toBe(true);
  });

  it("gives the namespace of the file a symbolic link leads to, not of the folder holding the link", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "secret", content: "tenant b only", namespace: "b" });
    await m.store({ key: "own", content: "tenant a", namespace: "a" });
    mkdirSync(join(root, "namespaces", "a", "memory"), { recursive: true });
    symlinkSync(
      join(root, "namespaces", "b", "MEMORY.md"),
      join(root, "namespaces", "a", "memory", "b.md"),
    );
    symlinkSync(
      join(root, "namespaces", "a", "MEMORY.md"),
      join(root, "namespaces", "a", "memory", "own.md"),
    );
    const crossing = await m.readSegment({ path: "namespaces/a/memory/b.md" });
    expect(crossing.namespace).toBe("b");
    expect(crossing.text).toContain("tenant b only");
    expect((await m.readSegment({ path: "namespaces/a/memory/own.md" })).namespace).toBe("a");
  });

  it("refuses a symbolic link to a file of the tree that is not a memory file", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "k", content: "v" });
    mkdirSync(join(root, ".memory-state"), { recursive: true });
    mkdirSync(join(root, "memory"), { recursive: true });
    writeFileSync(join(root, ".memory-state", "notes.md"), "state, not memory");
    writeFileSync(join(root, "README.md"), "not memory either");
    symlinkSync(join(root, ".memory-state", "notes.md"), join(root, "memory", "state.md"));
    symlinkSync(join(root, "README.md"), join(root, "memory", "readme.md"));
    for (const path of ["memory/state.md", "memory/readme.md"]) {
      const error = await m.readSegment({ path }).catch((e) => e);
      expect(MemoryError.hasCode(error, "INVALID_INPUT"), path).toBe(true);
      expect((error as Error).message).toMatch(/symbolic link/);
    }
  });
});

describe("index", () => {
  it("rebuilds a deleted index from the files with identical recall", async () => {
    const root = tempDir();
    // One clock for both instances: time decay is part of the score.
    const clock = Date.now() + 60_000;
    const now = () => clock;
    const first = memory(root, true, now);
    for (let i = 0; i < 40; i++)
      await first.store({
        key: `k${i}`,
        content: `fact number ${i} about ${i % 3 === 0 ? "coffee" : "tea"} and travel`,
      });
    writeFileSync(join(root, "memory.md"), "ignored: not in memory/");
    mkdirSync(join(root, "memory"), { recursive: true });
    writeFileSync(join(root, "memory", "notes.md"), "# Coffee\n\nCoffee beans from Lisbon.\n");
    const before = await first.recall("coffee travel", { limit: 10 });
    await first.close();
    rmSync(join(root, ".memory-state", "index.db"), { force: true });
    rmSync(join(root, ".memory-state", "index.db-wal"), { force: true });
    rmSync(join(root, ".memory-state", "index.db-shm"), { force: true });
    const second = memory(root, true, now);
    const after = await second.recall("coffee travel", { limit: 10 });
    expect(after.map((r) => [r.key, r.score])).toEqual(before.map((r) => [r.key, r.score]));
    expect(before.length).toBeGreaterThan(3);
    expect(await second.indexStatus()).toEqual({ enabled: true, current: true, stale: [] });
  });

  it("follows hand edits: a line copied under a new key (same id), a file deleted", async () => {
    const root = tempDir();
    const m = memory(root, true);
    await m.store({ key: "kayak", content: "The user owns a red kayak" });
    await m.store({ key: "canoe", content: "The user rents a canoe", category: "boats" });
    const text = read(root, "MEMORY.md");
    // A person duplicates the line and renames the key: two keys, one id in the files.
    writeFileSync(
      join(root, "MEMORY.md"),
      `${text}${text
        .split("\n")
        .find((line) => line.startsWith("- **kayak**"))!
        .replace("**kayak**", "**kayak-2**")}\n`,
    );
    const found = await m.recall("kayak", { mode: "bm25", minScore: 0 });
    expect(found.map((entry) => entry.key).sort()).toEqual(["kayak", "kayak-2"]);
    expect(await m.indexStatus()).toMatchObject({ current: true });
    expect(await m.problems()).toEqual([
      {
        path: "MEMORY.md",
        line: 4,
        message: expect.stringMatching(/is also the id of key "kayak"/),
      },
    ]);
    rmSync(join(root, "memory", "boats.md"));
    expect(await m.recall("canoe", { mode: "bm25", minScore: 0 })).toEqual([]);
    expect(await m.get("canoe")).toBeNull();
  });

  it("re-indexes a file edited outside the library on the next operation", async () => {
    const root = tempDir();
    const m = memory(root, true);
    await m.store({ key: "a", content: "alpha" });
    writeFileSync(
      join(root, "MEMORY.md"),
      `${read(root, "MEMORY.md")}\n## Zebras\n\nZebras are striped.\n`,
    );
    const [hit] = await m.recall("zebras striped");
    expect(hit?.key).toBe("MEMORY.md#zebras");
    expect(hit?.source).toEqual({ path: "MEMORY.md", startLine: 7, endLine: 7 });
  });
});

describe("decision records in the files", () => {
  it("keeps why an entry was superseded in the line's metadata, read back by a fresh instance", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "diet-1", content: "The user is vegetarian" });
    const newer = await m.store({ key: "diet-2", content: "The user is not vegetarian" });
    expect(newer.conflict?.superseded).toEqual(["diet-1"]);
    const file = read(root, "MEMORY.md");
    expect(file).toMatch(
      /- \*\*diet-1\*\*: The user is vegetarian <!-- memory \{.*"supersessionRecord":\{"by":"diet-2"/,
    );
    expect(file).toMatch(/- \*\*diet-2\*\*: .*"conflictRecord":\{"decidedAt"/);
    const fresh = memory(root);
    expect((await fresh.get("diet-1"))?.supersessionRecord).toMatchObject({
      by: "diet-2",
      decidedBy: "rules",
      rule: "negated",
    });
    expect((await fresh.get("diet-2"))?.conflictRecord).toEqual(newer.conflictRecord);
    // A hand-edited record that is not one is ignored with a problem; the entry stays.
    writeFileSync(
      join(root, "MEMORY.md"),
      file.replace('"supersessionRecord":{"by":"diet-2"', '"supersessionRecord":{"by":""'),
    );
    const edited = await memory(root).get("diet-1");
    expect(edited?.supersededBy).toBe("diet-2");
    expect(edited?.supersessionRecord).toBeUndefined();
  });
});
