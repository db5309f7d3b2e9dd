import { describe, expect, it } from "vitest";
import {
  DEFAULT_NAMESPACE,
  InvalidInputError,
  isBuiltInCategory,
  MAX_CONTENT_LENGTH,
  MAX_KEY_LENGTH,
  MemoryError,
  normalizeFilter,
  normalizeImportEntry,
  normalizeStoreInput,
  normalizeTimestamp,
  nowIso,
  type StoreInput,
  validateEmbedding,
  validateLimit,
} from "../src/index.js";

/** Runs fn, expects an INVALID_INPUT MemoryError, returns its message. */
function invalid(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(MemoryError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as MemoryError).code).toBe("INVALID_INPUT");
    return (error as Error).message;
  }
  throw new Error("expected an InvalidInputError, nothing was thrown");
}

const store = (input: Partial<StoreInput>) =>
  normalizeStoreInput({ key: "k", content: "c", ...input } as StoreInput);

describe("normalizeStoreInput", () => {
  it("applies defaults: category core, namespace default", () => {
    expect(normalizeStoreInput({ key: "favorite-drink", content: "tea" })).toEqual({
      key: "favorite-drink",
      content: "tea",
      category: "core",
      namespace: DEFAULT_NAMESPACE,
      sessionId: undefined,
      importance: undefined,
      embedding: undefined,
    });
    expect(DEFAULT_NAMESPACE).toBe("default");
  });

  it("keeps content byte-for-byte (no trimming)", () => {
    expect(store({ content: "  spaced\n" }).content).toBe("  spaced\n");
  });

  it.each([
    ["empty key", { key: "" }, /^key /],
    ["whitespace-only key", { key: " \t\n" }, /^key is empty/],
    ["empty content", { content: "" }, /^content is empty/],
    ["whitespace-only content", { content: "   " }, /^content is empty/],
    ["NUL in key", { key: "a\u0000b" }, /^key contains a NUL/],
    ["NUL in content", { content: "a\u0000b" }, /^content contains a NUL/],
    [
      "lone high surrogate in content",
      { content: "bad \ud800 text" },
      /^content contains a lone UTF-16 surrogate/,
    ],
    ["lone low surrogate in key", { key: "\udc00" }, /^key contains a lone UTF-16 surrogate/],
    [
      "key over the limit",
      { key: "k".repeat(MAX_KEY_LENGTH + 1) },
      /^key is 1025 characters long; the limit is 1024/,
    ],
    [
      "non-string content",
      { content: 42 as unknown as string },
      /^content must be a string, got number/,
    ],
    ["category with /", { category: "a/b" }, /^category "a\/b" is not valid/],
    ["category with ../", { category: "../etc" }, /^category "\.\.\/etc" is not valid/],
    ["category of 65 characters", { category: "c".repeat(65) }, /^category "c{65}" is not valid/],
    ["category with a space", { category: "my notes" }, /^category/],
    ["empty category", { category: "" }, /^category "" is not valid/],
    ["namespace with a line break", { namespace: "team\na" }, /^namespace contains the control/],
    ["empty namespace", { namespace: "" }, /^namespace is empty/],
    ["importance 1.5", { importance: 1.5 }, /^importance must be between 0 and 1, got 1\.5/],
    ["importance -0.1", { importance: -0.1 }, /^importance must be between 0 and 1/],
    [
      "importance NaN",
      { importance: Number.NaN },
      /^importance must be a number between 0 and 1, got NaN/,
    ],
    [
      "importance Infinity",
      { importance: Number.POSITIVE_INFINITY },
      /^importance must be a number/,
    ],
    ["empty sessionId", { sessionId: "" }, /^sessionId is empty/],
    [
      "embedding with NaN",
      { embedding: [0.1, Number.NaN] },
      /^embedding contains a value that is not a finite number/,
    ],
    ["empty embedding", { embedding: [] }, /^embedding must be a non-empty array/],
  ] as const)("rejects %s with a message naming the field", (_, input, message) => {
    expect(invalid(() => store(input as Partial<StoreInput>))).toMatch(message);
  });

  it("rejects content over MAX_CONTENT_LENGTH and accepts exactly the limit", () => {
    expect(MAX_CONTENT_LENGTH).toBe(4 * 1024 * 1024);
    expect(invalid(() => store({ content: "x".repeat(MAX_CONTENT_LENGTH + 1) }))).toMatch(
      /^content is 4194305 characters long; the limit is 4194304/,
    );
    expect(store({ content: "x".repeat(MAX_CONTENT_LENGTH) }).content).toHaveLength(
      MAX_CONTENT_LENGTH,
    );
  });

  it("rejects a non-object input", () => {
    expect(invalid(() => normalizeStoreInput(null as unknown as StoreInput))).toMatch(
      /store\(\) needs an object/,
    );
  });

  it("accepts custom categories of letters, digits, - and _ up to 64 characters", () => {
    expect(store({ category: "my-notes_2" }).category).toBe("my-notes_2");
    expect(store({ category: "c".repeat(64) }).category).toBe("c".repeat(64));
    expect(store({ category: "daily" }).category).toBe("daily");
  });

  it("accepts well-formed astral characters (emoji) in content", () => {
    expect(store({ content: "I love 🍵" }).content).toBe("I love 🍵");
  });

  it("accepts importance at the bounds", () => {
    expect(store({ importance: 0 }).importance).toBe(0);
    expect(store({ importance: 1 }).importance).toBe(1);
  });
});

describe("isBuiltInCategory", () => {
  it("knows core, daily and conversation only", () => {
    expect(["core", "daily", "conversation"].every(isBuiltInCategory)).toBe(true);
    expect(isBuiltInCategory("Core")).toBe(false);
    expect(isBuiltInCategory("notes")).toBe(false);
  });
});

describe("validateEmbedding", () => {
  it("checks the dimensions when given", () => {
    expect(validateEmbedding([1, 2, 3], 3)).toEqual([1, 2, 3]);
    expect(invalid(() => validateEmbedding([1, 2], 3))).toMatch(
      /^embedding has 2 dimensions but this store uses 3/,
    );
  });
});

describe("normalizeTimestamp", () => {
  it("refuses year 0000 (no SQL backend stores it) and accepts the range's ends", () => {
    expect(() => normalizeTimestamp("0000-06-01T00:00:00Z", "since")).toThrow(/out of range/);
    expect(normalizeTimestamp("0001-01-01T00:00:00Z")).toBe("0001-01-01T00:00:00.000Z");
    expect(normalizeTimestamp("9999-12-31T23:59:59.999Z")).toBe("9999-12-31T23:59:59.999Z");
  });

  it("returns the fixed format YYYY-MM-DDTHH:mm:ss.sssZ", () => {
    expect(normalizeTimestamp("2026-01-31T12:00:00Z")).toBe("2026-01-31T12:00:00.000Z");
    expect(normalizeTimestamp("2026-01-31")).toBe("2026-01-31T00:00:00.000Z");
    expect(normalizeTimestamp("2026-01-31T12:00:00.5Z")).toBe("2026-01-31T12:00:00.500Z");
    expect(normalizeTimestamp("2026-01-31T12:00:00.123456Z")).toBe("2026-01-31T12:00:00.123Z");
  });

  it("converts offsets to UTC", () => {
    expect(normalizeTimestamp("2026-01-31T12:00:00+02:00")).toBe("2026-01-31T10:00:00.000Z");
    expect(normalizeTimestamp("2026-01-01T00:30:00-01:30")).toBe("2026-01-01T02:00:00.000Z");
    expect(normalizeTimestamp("2026-01-01T01:00:00+05:00")).toBe("2025-12-31T20:00:00.000Z");
  });

  it("makes string order equal time order", () => {
    const inputs = [
      "2026-01-31T12:00:00+02:00",
      "2026-01-31T10:00:00.001Z",
      "2025-12-31",
      "2026-01-31T09:59:59.999Z",
      "0999-05-05T00:00:00Z",
      "2026-01-31T10:00:00Z",
    ];
    const normalized = inputs.map((s) => normalizeTimestamp(s));
    const byString = [...normalized].sort();
    const byTime = [...normalized].sort((a, b) => Date.parse(a) - Date.parse(b));
    expect(byString).toEqual(byTime);
    for (const stamp of normalized)
      expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("agrees with nowIso's format", () => {
    const now = nowIso();
    expect(normalizeTimestamp(now)).toBe(now);
  });

  it.each([
    "",
    "   ",
    "yesterday",
    "hello 2020",
    "1",
    "March 5",
    "5/3/2024",
    "Tue Mar 05 2024",
    "2026-13-01",
    "2026-02-30",
    "2026-01-31T24:00:00Z",
    "2026-01-31T12:60:00Z",
    "2026-01-31T12:00:00+25:00",
    "+010000-01-01T00:00:00Z",
    "2026-01-31T12:00:00Zjunk",
  ])("rejects %j with an error naming the field", (value) => {
    expect(invalid(() => normalizeTimestamp(value, "since"))).toMatch(
      /^since ".*" is not a valid time; use RFC 3339/,
    );
  });

  it("rejects non-strings and names the default field", () => {
    expect(invalid(() => normalizeTimestamp(1_700_000_000_000))).toMatch(
      /^timestamp 1700000000000 is not a valid/,
    );
    expect(invalid(() => normalizeTimestamp(undefined, "until"))).toMatch(/^until /);
  });

  it("accepts 29 February only in leap years", () => {
    expect(normalizeTimestamp("2024-02-29")).toBe("2024-02-29T00:00:00.000Z");
    expect(invalid(() => normalizeTimestamp("2025-02-29"))).toMatch(/not a valid/);
  });
});

describe("normalizeImportEntry", () => {
  it("normalizes timestamps and names the bad one", () => {
    const entry = normalizeImportEntry({
      key: "k",
      content: "c",
      createdAt: "2026-01-01T00:00:00+01:00",
      updatedAt: "2026-01-02",
    });
    expect(entry.createdAt).toBe("2025-12-31T23:00:00.000Z");
    expect(entry.updatedAt).toBe("2026-01-02T00:00:00.000Z");
    expect(
      invalid(() => normalizeImportEntry({ key: "k", content: "c", updatedAt: "soon" })),
    ).toMatch(/^updatedAt "soon"/);
  });
});

describe("normalizeFilter", () => {
  it("applies defaults", () => {
    expect(normalizeFilter()).toEqual({
      namespace: "default",
      sessionId: undefined,
      categories: undefined,
      since: undefined,
      until: undefined,
      includeSuperseded: false,
    });
    expect(
      normalizeFilter({}, { allNamespacesByDefault: true, includeSupersededByDefault: true }),
    ).toMatchObject({
      namespace: undefined,
      includeSuperseded: true,
    });
  });

  it("normalizes since and until", () => {
    const filter = normalizeFilter({ since: "2026-01-01", until: "2026-02-01T00:00:00+01:00" });
    expect(filter.since).toBe("2026-01-01T00:00:00.000Z");
    expect(filter.until).toBe("2026-01-31T23:00:00.000Z");
  });

  it("rejects since >= until", () => {
    expect(invalid(() => normalizeFilter({ since: "2026-02-01", until: "2026-01-01" }))).toMatch(
      /^since \(2026-02-01T00:00:00.000Z\) must be earlier than until \(2026-01-01T00:00:00.000Z\)/,
    );
    expect(
      invalid(() => normalizeFilter({ since: "2026-01-01T01:00:00+01:00", until: "2026-01-01" })),
    ).toMatch(/must be earlier than until/);
  });

  it("rejects unparsable since or until, naming it", () => {
    expect(invalid(() => normalizeFilter({ since: "last week" }))).toMatch(/^since "last week"/);
    expect(invalid(() => normalizeFilter({ until: "tomorrow" }))).toMatch(/^until "tomorrow"/);
  });

  it("validates categories, namespace and session", () => {
    expect(invalid(() => normalizeFilter({ categories: ["core", "../x"] }))).toMatch(
      /^category "\.\.\/x"/,
    );
    expect(invalid(() => normalizeFilter({ namespace: "a\tb" }))).toMatch(/^namespace/);
    expect(invalid(() => normalizeFilter({ sessionId: " " }))).toMatch(/^sessionId is empty/);
    expect(normalizeFilter({ categories: [] }).categories).toBeUndefined();
  });
});

describe("validateLimit", () => {
  it("returns the fallback for undefined and clamps to the maximum", () => {
    expect(validateLimit(undefined, 10)).toBe(10);
    expect(validateLimit(0, 10)).toBe(0);
    expect(validateLimit(5, 10)).toBe(5);
    expect(validateLimit(20_000, 10)).toBe(10_000);
    expect(validateLimit(50, 10, 20)).toBe(20);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "5", null])("rejects %j", (limit) => {
    expect(invalid(() => validateLimit(limit, 10))).toMatch(/^limit must be an integer >= 0/);
  });
});
