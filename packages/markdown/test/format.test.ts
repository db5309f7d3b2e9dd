import { validateContent, validateKey, validateNamespace } from "@memory/api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinLines, splitLines } from "../src/format/markdown-file.js";
import {
  decodeNamespace,
  type EntryLine,
  encodeNamespace,
  formatEntryLine,
  parseEntryLine,
  parseMarkdownFile,
} from "../src/index.js";

const TRICKY = [
  "**",
  ": ",
  "**: ",
  "#",
  "# ",
  "-->",
  "<!--",
  " <!-- memory ",
  " -->",
  "\\",
  "\\n",
  "\\u{41}",
  "\n",
  "\r\n",
  "\r",
  " ",
  "  ",
  "\t",
  "[Conversation] ",
  "- **k**: v",
  "\u2028",
  "\u2029",
  "\u0085",
  "\u007f",
  "\u0001",
  "\ufeff",
  "`",
  "```",
  "*",
  "_",
  "é",
  "猫",
  "😀",
];

/** Text made of tricky fragments and arbitrary well-formed Unicode (never NUL). */
const text = (maxParts: number) =>
  fc
    .array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: "binary", maxLength: 12 })), {
      minLength: 1,
      maxLength: maxParts,
    })
    .map((parts) => parts.join("").replace(/\u0000/g, "0"));

const valid = (check: (value: string) => unknown) => (value: string) => {
  try {
    check(value);
    return true;
  } catch {
    return false;
  }
};

const iso = fc
  .integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31) })
  .map((ms) => new Date(ms).toISOString());

const entryLine: fc.Arbitrary<EntryLine> = fc.record(
  {
    key: text(6).filter(valid(validateKey)),
    content: text(12).filter(valid(validateContent)),
    conversation: fc.boolean(),
    metadata: fc.record(
      {
        id: fc.uuid(),
        createdAt: iso,
        updatedAt: iso,
        importance: fc.double({ min: 0, max: 1, noNaN: true }),
        sessionId: text(4).filter(valid(validateKey)),
        supersededBy: text(4).filter(valid(validateKey)),
      },
      { requiredKeys: ["id", "createdAt", "updatedAt"] },
    ),
  },
  { requiredKeys: ["key", "content", "conversation", "metadata"] },
);

describe("entry lines", () => {
  it("round-trips every valid key, content and metadata byte for byte, on one line", () => {
    fc.assert(
      fc.property(entryLine, (entry) => {
        const line = formatEntryLine(entry);
        expect(line).not.toMatch(/[\r\n\u2028\u2029\u0085]/);
        expect(parseEntryLine(line, true)).toEqual(entry);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a content that starts with [Conversation] as daily content, not as a conversation", () => {
    const entry = { key: "k", content: "[Conversation] hi", conversation: false };
    const line = formatEntryLine(entry);
    expect(parseEntryLine(line, true)).toEqual(entry);
    expect(parseEntryLine(formatEntryLine({ ...entry, conversation: true }), true)).toEqual({
      ...entry,
      conversation: true,
    });
  });

  it("writes plain entries the way a person would", () => {
    expect(formatEntryLine({ key: "editor", content: "Uses Neovim", conversation: false })).toBe(
      "- **editor**: Uses Neovim",
    );
    expect(parseEntryLine("- **path**: C:\\Users\\me", false)).toEqual({
      key: "path",
      content: "C:\\Users\\me",
      conversation: false,
    });
  });

  it("reports lines that start like an entry but cannot be read", () => {
    expect(parseEntryLine("- **no end", false)).toMatch(/not closed/);
    expect(parseEntryLine('- **k**: v <!-- memory {"id": -->', false)).toMatch(/JSON/);
    expect(parseEntryLine('- **k**: v <!-- memory {"importance":"x"} -->', false)).toMatch(
      /importance/,
    );
  });
});

describe("files", () => {
  const line = fc.oneof(
    text(6).map((value) => value.replace(/[\r\n]/g, " ")),
    entryLine.map((entry) => formatEntryLine(entry)),
    fc.constantFrom(
      "# Heading",
      "",
      "- a list item",
      "- **broken",
      "```",
      "- **k**: <!-- memory {} -->",
    ),
  );
  const eol = fc.constantFrom("\n", "\r\n", "\r");

  it("splits and joins any text back to the same bytes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (value) => {
        expect(joinLines(splitLines(value))).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps every line: entries, hand-written text and garbage, with their line breaks", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, eol), { maxLength: 40 }), fc.boolean(), (lines, bom) => {
        const text = (bom ? "\ufeff" : "") + lines.map(([value, end]) => value + end).join("");
        const parsed = parseMarkdownFile(text, { category: "daily", daily: true, entries: true });
        expect(joinLines(parsed.lines, parsed.bom)).toBe(text);
        // Every line is an entry, a problem, or free text; line numbers stay true.
        for (const entry of parsed.entries)
          expect(formatEntryLine(entry)).toBe(
            formatEntryLine(parseEntryLine(parsed.lines[entry.line - 1]!.text, true) as EntryLine),
          );
      }),
      { numRuns: 500 },
    );
  });

  it("chunks hand-written text with line provenance and stable anchors", () => {
    const text = [
      "# Memory",
      "",
      '- **editor**: Uses Neovim <!-- memory {"id":"x"} -->',
      "",
      "## Travel plans",
      "",
      "Going to Lisbon in May.",
      "Booked the train.",
      "- **broken",
    ].join("\n");
    const parsed = parseMarkdownFile(text, { category: "core", daily: false, entries: true });
    expect(parsed.entries.map((entry) => entry.key)).toEqual(["editor"]);
    expect(parsed.problems).toEqual([{ line: 9, message: expect.stringMatching(/unreadable/) }]);
    expect(parsed.chunks).toEqual([
      {
        anchor: "travel-plans",
        content: "## Travel plans\nGoing to Lisbon in May.\nBooked the train.\n- **broken",
        startLine: 7,
        endLine: 9,
      },
    ]);
  });
});

describe("namespace directories", () => {
  it("encodes every namespace reversibly, safely and case-distinctly", () => {
    fc.assert(
      fc.property(text(8).filter(valid(validateNamespace)), (namespace) => {
        const name = encodeNamespace(namespace);
        expect(name).toMatch(/^(?:[a-z0-9_%A-F-]+|~[0-9a-f]{32})$/);
        expect(name).not.toMatch(/^\.+$/);
        expect(name.length).toBeLessThanOrEqual(200);
        if (!name.startsWith("~")) expect(decodeNamespace(name)).toBe(namespace);
      }),
      { numRuns: 2000 },
    );
    expect(encodeNamespace("Team")).not.toBe(encodeNamespace("team"));
    expect(encodeNamespace("..")).toBe("%2E%2E");
    expect(encodeNamespace("x".repeat(256))).toMatch(/^~/);
  });
});
