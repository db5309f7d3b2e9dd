import { describe, expect, it } from "vitest";
import {
  compileCollectionPattern,
  contentTypeFromPath,
  MAX_FRAGMENT_CHARS,
  noteFragments,
} from "../src/index.js";
import { DECISION } from "./support/collection-fixture.js";

describe("note fragments", () => {
  it("cuts a note into the whole note, its sections, lists and code blocks, with line ranges", () => {
    const lines = DECISION.split("\n");
    const ranges = noteFragments(lines, 5).map((f) => [f.startLine, f.endLine]);
    // Whole body, "# ADR 7" preamble dropped (small), Context, Decision, the list, the code block.
    expect(ranges).toEqual([
      [6, 22],
      [8, 11],
      [13, 22],
      [15, 16],
      [18, 22],
    ]);
    for (const fragment of noteFragments(lines, 5))
      expect(fragment.text).toBe(lines.slice(fragment.startLine - 1, fragment.endLine).join("\n"));
  });

  it("keeps a tiny note whole and drops nothing else", () => {
    expect(noteFragments(["", "Short.", ""], 0)).toEqual([
      { startLine: 2, endLine: 2, text: "Short." },
    ]);
    expect(noteFragments(["", "  "], 0)).toEqual([]);
  });

  it("cuts a long note at paragraph breaks, every piece within the limit", () => {
    const paragraph = "word ".repeat(200).trim();
    const lines = Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? paragraph : ""));
    const fragments = noteFragments(lines, 0);
    expect(fragments.length).toBeGreaterThan(1);
    for (const fragment of fragments) {
      expect(fragment.text.length).toBeLessThanOrEqual(MAX_FRAGMENT_CHARS);
      expect(fragment.text.startsWith("word")).toBe(true);
    }
    expect(fragments[0]?.startLine).toBe(1);
    expect(fragments.at(-1)?.endLine).toBe(11);
  });
});

describe("collection patterns and content types", () => {
  it("matches globs relative to the root", () => {
    const all = compileCollectionPattern("**/*.md");
    expect(["a.md", "x/y/z.md"].map((p) => all.test(p))).toEqual([true, true]);
    expect(all.test("a.txt")).toBe(false);
    const some = compileCollectionPattern("docs/*.{md,markdown}");
    expect(
      ["docs/a.md", "docs/b.markdown", "docs/x/a.md", "a.md"].map((p) => some.test(p)),
    ).toEqual([true, true, false, false]);
  });

  it("guesses the content type from the path", () => {
    expect(
      [
        "decisions/0001-db.md",
        "adr/12.md",
        "research/llm.md",
        "projects/atlas/plan.md",
        "handoff-2026-01.md",
        "meetings/standup.md",
        "status/week-3.md",
        "misc/idea.md",
      ].map(contentTypeFromPath),
    ).toEqual([
      "decision",
      "decision",
      "research",
      "project",
      "handoff",
      "conversation",
      "progress",
      "note",
    ]);
  });
});
