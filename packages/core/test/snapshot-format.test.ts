import type { MemoryEntry } from "@memory/api";
import { describe, expect, it } from "vitest";
import {
  createInMemoryDriver,
  createMemoryFacade,
  formatSnapshot,
  formatSnapshotEntry,
  parseSnapshot,
  type SnapshotRecord,
} from "../src/index.js";

// A small seeded generator (mulberry32), so a failing case can be replayed from its seed.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces that have broken Markdown-ish formats: the format's own markers, escapes, every kind
// of line break, controls, and text that looks like another entry, heading or comment.
const HOSTILE = [
  "*",
  "**",
  "**: ",
  ": ",
  "#",
  "## namespace: other",
  "- **fake**: entry",
  "\n- **fake**: entry <!-- memory {} -->",
  "-->",
  "<!--",
  " <!-- memory ",
  " -->",
  "--",
  "-",
  ">",
  "<",
  "!",
  "\\",
  "\\\\",
  "\\n",
  "\\u{41}",
  "\\*",
  "\\<",
  "u{",
  "}",
  " ",
  "  ",
  "\t",
  "\n",
  "\r",
  "\r\n",
  "\n\r",
  "\u0001",
  "\u001b[31m",
  "\u007f",
  "\u0085",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\u200b",
  "é",
  "Zürich",
  "记忆",
  "😀",
  "e\u0301",
  '"',
  "'",
  "`",
  "{",
  '{"id":"x"}',
  "a",
  "text",
  "0.5",
];

// Namespaces: no control characters, but spaces at either end, markers and non-ASCII.
const NAMESPACE_PIECES = [
  "acme",
  ":",
  "@",
  "alice@example.com",
  "acme:billing",
  "Zürich-团队",
  "../x",
  "*",
  "**",
  "#",
  " ",
  "\\",
  "-->",
  "<!--",
  "😀",
  "\u00a0",
  "\u3000",
  "Ä",
  "A\u0308",
  "\\u{20}",
  "\u2028",
];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

function text(next: () => number, pieces: readonly string[], maxPieces: number): string {
  let value = "";
  const count = 1 + Math.floor(next() * maxPieces);
  for (let index = 0; index < count; index++) value += pick(next, pieces);
  return value;
}

function namespace(next: () => number): string {
  if (next() < 0.2) return "default";
  if (next() < 0.1) return "n".repeat(255) + pick(next, [" ", "é", "*", ":"]);
  const value = text(next, NAMESPACE_PIECES, 8).replace(/[\u2028]/g, "x");
  return value.trim() === "" ? `${value}x` : value.slice(0, 256);
}

function timestamp(next: () => number): string {
  return new Date(Date.UTC(2020, 0, 1) + Math.floor(next() * 2e11)).toISOString();
}

function entry(next: () => number, index: number): MemoryEntry {
  const value: MemoryEntry = {
    id: next() < 0.8 ? `id-${index}-${Math.floor(next() * 1e9)}` : text(next, HOSTILE, 6),
    key: text(next, HOSTILE, 12),
    content: text(next, HOSTILE, 40),
    category: next() < 0.8 ? "core" : pick(next, ["daily", "conversation", "my-notes_2"]),
    namespace: namespace(next),
    createdAt: timestamp(next),
    updatedAt: timestamp(next),
  };
  if (next() < 0.7) value.importance = next() < 0.2 ? pick(next, [0, 1, 0.1 + 0.2]) : next();
  if (next() < 0.4) value.sessionId = text(next, HOSTILE, 6);
  if (next() < 0.3) value.supersededBy = text(next, HOSTILE, 6);
  return value;
}

/** What parsing should give back for an entry: every stored field, nothing else. */
function expected(value: MemoryEntry): SnapshotRecord["entry"] {
  const result: SnapshotRecord["entry"] = {
    key: value.key,
    content: value.content,
    id: value.id,
    createdAt: value.createdAt,
    updatedAt: value.updatedAt,
    category: value.category,
    namespace: value.namespace,
  };
  if (value.importance !== undefined) result.importance = value.importance;
  if (value.sessionId !== undefined) result.sessionId = value.sessionId;
  if (value.supersededBy !== undefined) result.supersededBy = value.supersededBy;
  return result;
}

/** The order formatSnapshot writes: grouped by namespace in order of first appearance. */
function grouped(entries: MemoryEntry[]): MemoryEntry[] {
  const order = [...new Set(entries.map((value) => value.namespace))];
  return order.flatMap((name) => entries.filter((value) => value.namespace === name));
}

function base(overrides: Partial<MemoryEntry> = {}): MemoryEntry {
  return {
    id: "0b7e1f5c-3f1a-4c8e-9a57-2f3c6d1e8a90",
    key: "user_lang",
    content: "Prefers TypeScript",
    category: "core",
    namespace: "default",
    createdAt: "2026-11-23T09:10:00.000Z",
    updatedAt: "2026-11-23T09:18:36.123Z",
    importance: 0.9,
    ...overrides,
  };
}

describe("snapshot format: property tests", () => {
  it("round-trips 1,200 seeded random entries drawn from hostile alphabets, byte for byte", () => {
    for (let seed = 1; seed <= 120; seed++) {
      const next = random(seed);
      const entries = Array.from({ length: 10 }, (_, index) => entry(next, seed * 100 + index));
      const written = formatSnapshot(entries, { writtenAt: "2026-01-01T00:00:00.000Z" });
      const parsed = parseSnapshot(written);
      expect(parsed.problems, `seed ${seed}`).toEqual([]);
      expect(
        parsed.records.map((record) => record.entry),
        `seed ${seed}`,
      ).toEqual(grouped(entries).map(expected));
    }
  });

  it("keeps each entry on one line whose only comment is its metadata", () => {
    for (let seed = 1000; seed < 1300; seed++) {
      const value = entry(random(seed), seed);
      const line = formatSnapshotEntry(value);
      expect(line.endsWith(" -->\n")).toBe(true);
      const body = line.slice(0, -1);
      expect(body).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
      // Once backslash escapes are taken out, one "<!--" and one "-->" remain: values can
      // neither open nor close a comment.
      const unescaped = body.replace(/\\[\s\S]/g, "_");
      expect(unescaped.split("<!--")).toHaveLength(2);
      expect(unescaped.split("-->")).toHaveLength(2);
      const comment = body.slice(body.lastIndexOf(" <!-- memory ") + 13, -4);
      expect(comment).not.toMatch(/--|<|>/);
    }
  });

  it("reads snapshots whose line ends were converted to CRLF or CR", () => {
    for (let seed = 2000; seed < 2100; seed++) {
      const next = random(seed);
      const entries = Array.from({ length: 5 }, (_, index) => entry(next, index));
      const written = formatSnapshot(entries);
      const want = grouped(entries).map(expected);
      for (const eol of ["\r\n", "\r"]) {
        const parsed = parseSnapshot(written.replace(/\n/g, eol));
        expect(parsed.problems).toEqual([]);
        expect(parsed.records.map((record) => record.entry)).toEqual(want);
      }
    }
  });

  it("never throws on arbitrary text, and reports problems with line numbers within the file", () => {
    for (let seed = 3000; seed < 4000; seed++) {
      const next = random(seed);
      const garbage = text(next, [...HOSTILE, "- **", "## namespace: ", "\n", "\\u{", "\\"], 60);
      const parsed = parseSnapshot(garbage);
      const lines = garbage.split(/\r\n|\r|\n/).length;
      for (const problem of parsed.problems) {
        expect(problem.line).toBeGreaterThanOrEqual(1);
        expect(problem.line).toBeLessThanOrEqual(lines);
        expect(problem.message.length).toBeGreaterThan(0);
      }
    }
  });
});

describe("snapshot format: written form", () => {
  it("writes plain entries as readable Markdown list items", () => {
    const written = formatSnapshot([base()], {
      writtenAt: "2026-11-23T09:20:00.000Z",
      generator: "memory 0.1.0",
    });
    expect(written).toBe(
      [
        "# MEMORY snapshot",
        "",
        "<!-- memory-snapshot v1; written 2026-11-23T09:20:00.000Z by memory 0.1.0 -->",
        "",
        "## namespace: default",
        "",
        '- **user_lang**: Prefers TypeScript <!-- memory {"id":"0b7e1f5c-3f1a-4c8e-9a57-2f3c6d1e8a90","createdAt":"2026-11-23T09:10:00.000Z","updatedAt":"2026-11-23T09:18:36.123Z","importance":0.9} -->',
        "",
      ].join("\n"),
    );
  });

  it("escapes only what would break the line, the bold key or the comment", () => {
    const line = formatSnapshotEntry(
      base({
        key: "a**b: c\\d",
        content: "line 1\nline 2\r\n<!-- x --> tab\there é 😀",
        sessionId: "s-->1",
        supersededBy: "<new>",
      }),
    );
    expect(line).toContain(
      "- **a\\*\\*b: c\\\\d**: line 1\\nline 2\\r\\n\\<!-- x --\\> tab\there é 😀 <!-- memory ",
    );
    expect(line).toContain('"sessionId":"s\\u002d\\u002d\\u003e1"');
    expect(line).toContain('"supersededBy":"\\u003cnew\\u003e"');
  });

  it("writes the category only when it is not core, and leaves unset fields out", () => {
    const line = formatSnapshotEntry(base({ category: "daily", importance: undefined }));
    expect(line).toContain('"category":"daily"');
    expect(line).not.toContain("importance");
    expect(line).not.toContain("sessionId");
  });

  it("round-trips namespaces with trailing spaces, 256 characters and markers", () => {
    const names = [" team ", "x".repeat(256), "a:b@c", "**", "# not a heading", "back\\slash"];
    const entries = names.map((name, index) => base({ namespace: name, key: `k${index}` }));
    const parsed = parseSnapshot(formatSnapshot(entries));
    expect(parsed.problems).toEqual([]);
    expect(parsed.records.map((record) => record.entry.namespace)).toEqual(names);
    expect(formatSnapshot([base({ namespace: " team " })])).toContain(
      "## namespace:  team\\u{20}\n",
    );
  });
});

describe("snapshot format: reading hand-written and damaged files", () => {
  it("reads hand-written entries without metadata, before any heading as default", () => {
    const parsed = parseSnapshot(
      "# notes\n\n- **lang**: TypeScript\n## namespace: b\n- **x**: y\n",
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.records).toEqual([
      { line: 3, entry: { key: "lang", content: "TypeScript", namespace: "default" } },
      { line: 5, entry: { key: "x", content: "y", namespace: "b" } },
    ]);
  });

  it("keeps unknown escapes as written, so Windows paths survive hand editing", () => {
    const parsed = parseSnapshot("- **path**: C:\\Users\\me\n");
    expect(parsed.records[0]?.entry.content).toBe("C:\\Users\\me");
  });

  it("reports malformed lines with their line numbers and reads the rest", () => {
    const good = formatSnapshotEntry(base()).trimEnd();
    const file = [
      "# MEMORY snapshot",
      "",
      "## namespace: default",
      "",
      "- **unclosed key: content",
      good,
      "- **k**: v <!-- memory {not json} -->",
      "- **k2**: v <!-- memory {} ",
      '- **k3**: v <!-- memory {"importance":"high"} -->',
      "some prose that is not an entry",
      "- **k4**: ends with a backslash \\",
      "## namespace: bad \\u{zz}",
      "- **lost**: under the broken heading",
      "## namespace: fine",
      "- **k5**: v",
    ].join("\n");
    const parsed = parseSnapshot(file);
    expect(parsed.problems.map((problem) => problem.line)).toEqual([5, 7, 8, 9, 10, 11, 12, 13]);
    expect(parsed.problems[0]?.message).toMatch(/not closed by "\*\*: "/);
    expect(parsed.problems[1]?.message).toMatch(/not valid JSON/);
    expect(parsed.problems[3]?.message).toMatch(/"importance" must be a number/);
    expect(parsed.problems[6]?.message).toMatch(/\\u\{\.\.\.\}/);
    expect(parsed.problems[7]?.message).toMatch(/line 12/);
    expect(parsed.records.map((record) => [record.line, record.entry.key])).toEqual([
      [6, "user_lang"],
      [15, "k5"],
    ]);
    expect(parsed.records[1]?.entry.namespace).toBe("fine");
  });

  it("ignores a byte-order mark and fields of a newer format version", () => {
    const parsed = parseSnapshot(
      '\ufeff# MEMORY snapshot\n- **k**: v <!-- memory {"id":"a","future":[1]} -->\n',
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.records[0]?.entry).toEqual({
      key: "k",
      content: "v",
      id: "a",
      category: "core",
      namespace: "default",
    });
  });
});

describe("snapshot format: decision records", () => {
  it("carries conflictRecord and supersessionRecord through a snapshot and its hydration", async () => {
    await using source = createMemoryFacade(createInMemoryDriver(), { logger: () => {} });
    await source.store({ key: "diet-1", content: "The user is vegetarian" });
    const newer = await source.store({ key: "diet-2", content: "The user is not vegetarian" });
    expect(newer.conflict?.superseded).toEqual(["diet-1"]);
    const entries: MemoryEntry[] = [];
    for await (const entry of source.export()) entries.push(entry);
    const text = formatSnapshot(entries);
    // One line each, the record inside the line's metadata comment (no "--" or "<" escapes broken).
    expect(text.split("\n").filter((line) => line.startsWith("- **"))).toHaveLength(2);
    const parsed = parseSnapshot(text);
    expect(parsed.problems).toEqual([]);
    await using target = createMemoryFacade(createInMemoryDriver(), { logger: () => {} });
    const report = await target.importEntries(parsed.records.map((record) => record.entry));
    expect(report.rejected).toEqual([]);
    const old = await target.get("diet-1");
    expect(old?.supersessionRecord).toEqual((await source.get("diet-1"))?.supersessionRecord);
    expect(old?.supersessionRecord).toMatchObject({ by: "diet-2", rule: "negated" });
    expect((await target.get("diet-2"))?.conflictRecord).toEqual(newer.conflictRecord);
  });
});
