import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MemoryError } from "@memory/api";
import { readStoredCollections } from "@memory/core";
import { afterEach, describe, expect, it } from "vitest";
import { readNote } from "../src/collections/read-note.js";
import { addCollection, syncCollection, syncCollections } from "../src/index.js";
import { writeNotes, writeStandardNotes } from "./support/collection-fixture.js";
import { storeFactory } from "./support/stores.js";

const stores = storeFactory();
afterEach(() => stores.cleanup());

async function indexedPaths(memory: import("@memory/api").Memory): Promise<string[]> {
  const entries = await memory.list({ categories: ["notes"], limit: 1000 });
  return [...new Set(entries.map((entry) => entry.key.split(":")[2]!.split("#L")[0]!))].sort();
}

describe("collections: walk rules and bad input", () => {
  it("skips dot folders, vendored and build folders, private notes and unmatched files", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    writeStandardNotes(root);
    await addCollection(memory, { name: "notes", path: root });
    const [report] = await syncCollections(memory);
    expect(report?.problems).toEqual([]);
    expect(await indexedPaths(memory)).toEqual([
      "decisions/0007-cache.md",
      "ficus.md",
      "research/vector-db.md",
    ]);
  });

  it("reports binary, invalid UTF-8, oversized and symlinked files, and indexes the rest", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    const outside = stores.tempDir();
    writeNotes(outside, { "secret.md": "# outside the collection, never indexed" });
    writeNotes(root, {
      "good.md": "# Good note\n\nA note about the quarterly planning offsite in Lisbon.",
    });
    writeFileSync(path.join(root, "image.md"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
    writeFileSync(path.join(root, "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(path.join(root, "huge.md"), `# Huge\n${"x".repeat(5000)}\n`);
    mkdirSync(path.join(root, "sub"));
    symlinkSync(root, path.join(root, "sub", "loop"));
    symlinkSync(path.join(outside, "secret.md"), path.join(root, "linked.md"));
    symlinkSync(outside, path.join(root, "outside"));
    await addCollection(memory, { name: "notes", path: root });
    const [report] = await syncCollections(memory, { maxNoteBytes: 4096 });
    const codes = Object.fromEntries(
      report!.problems.map((problem) => [problem.path, problem.code]),
    );
    expect(codes).toEqual({
      "huge.md": "TOO_LARGE",
      "image.md": "BINARY",
      "latin1.md": "INVALID_UTF8",
      "linked.md": "SYMLINK",
      outside: "SYMLINK",
      "sub/loop": "SYMLINK",
    });
    expect(report).toMatchObject({ notes: 1, added: 1 });
    expect(await indexedPaths(memory)).toEqual(["good.md"]);
  });

  it("keeps a note's previous fragments when it can no longer be read", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    writeNotes(root, {
      "plan.md": "# Plan\n\nThe offsite moves to Porto in the second week of May.",
    });
    await addCollection(memory, { name: "notes", path: root });
    await syncCollections(memory);
    const before = await memory.list({ categories: ["notes"] });
    writeFileSync(path.join(root, "plan.md"), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    const [report] = await syncCollections(memory);
    expect(report?.problems.map((problem) => problem.code)).toEqual(["BINARY"]);
    expect(report).toMatchObject({ removed: 0, changed: 0 });
    expect(await memory.list({ categories: ["notes"] })).toEqual(before);
  });

  it("reads a vanished file or a swapped-in link as a per-file problem", async () => {
    const root = stores.tempDir();
    const read = await readNote(root, "gone.md", 1024);
    expect(read).toMatchObject({ problem: { path: "gone.md", code: "UNREADABLE" } });
    // A note swapped for a link after the walk saw it is refused, never followed.
    writeNotes(root, { "real.md": "# Real" });
    symlinkSync(path.join(root, "real.md"), path.join(root, "swapped.md"));
    expect(await readNote(root, "swapped.md", 1024)).toMatchObject({
      problem: { path: "swapped.md", code: "SYMLINK" },
    });
  });

  it("refuses a pattern that escapes the folder, with a typed error, and stores nothing", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    for (const pattern of ["../**/*.md", "/etc/*.md", "notes/../../*.md", "..\\*.md"]) {
      const error = await addCollection(memory, { name: "notes", path: root, pattern }).catch(
        (caught: unknown) => caught,
      );
      expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
      expect((error as Error).message).toContain("escapes the collection's folder");
    }
    expect(await readStoredCollections(memory)).toEqual({});
  });

  it("refuses a folder that disappeared or became a symlink, and changes nothing", async () => {
    const memory = stores.sqlite();
    const parent = stores.tempDir();
    const root = path.join(parent, "notes");
    writeNotes(root, {
      "plan.md": "# Plan\n\nThe offsite moves to Porto in the second week of May.",
    });
    const definition = await addCollection(memory, { name: "notes", path: root });
    await syncCollection(memory, definition);
    const count = await memory.count({ categories: ["notes"] });
    renameSync(root, path.join(parent, "moved"));
    const [gone] = await syncCollections(memory);
    expect(gone?.error?.message).toContain("cannot be read");
    symlinkSync(path.join(parent, "moved"), root);
    const [linked] = await syncCollections(memory);
    expect(linked?.error?.message).toContain("is now a symbolic link");
    expect(await memory.count({ categories: ["notes"] })).toBe(count);
  });

  it("reports bad frontmatter fields with file:line and still indexes the note", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    writeNotes(root, {
      "projects/atlas.md": [
        "---",
        "title: [one, two]",
        "tags: [atlas, ]",
        "content_type: memo",
        "authored_at: last tuesday",
        "---",
        "# Atlas kickoff",
        "",
        "The atlas project starts with a migration of the billing tables to the new cluster.",
      ].join("\n"),
    });
    await addCollection(memory, { name: "notes", path: root });
    const [report] = await syncCollections(memory);
    expect(
      report?.problems.map((problem) => [problem.line, problem.message.split(" ")[0]]),
    ).toEqual([
      [2, "title"],
      [3, "tags"],
      [4, "content_type"],
      [5, "authored_at"],
    ]);
    expect(report?.problems.every((problem) => problem.path === "projects/atlas.md")).toBe(true);
    const [hit] = await memory.recall("billing tables migration", { limit: 1 });
    expect(hit?.source).toMatchObject({
      title: "Atlas kickoff",
      contentType: "project",
      startLine: 7,
    });
  });

  it("refuses a collection name that is invalid or already a category of memories", async () => {
    const memory = stores.sqlite();
    const root = stores.tempDir();
    await memory.store({ key: "k", content: "a recipe", category: "recipes" });
    const used = await addCollection(memory, { name: "recipes", path: root }).catch(
      (e: unknown) => e,
    );
    expect(MemoryError.hasCode(used, "CONFLICT")).toBe(true);
    for (const name of ["core", "has space", ""]) {
      const bad = await addCollection(memory, { name, path: root }).catch((e: unknown) => e);
      expect(MemoryError.hasCode(bad, "INVALID_INPUT")).toBe(true);
    }
    const missing = await addCollection(memory, { name: "x", path: path.join(root, "nope") }).catch(
      (e: unknown) => e,
    );
    expect((missing as Error).message).toContain("is not a readable folder");
  });
});
