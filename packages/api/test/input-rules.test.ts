import { describe, expect, it } from "vitest";
import {
  type ImportEntry,
  InvalidInputError,
  MAX_KEY_BYTES,
  MAX_KEY_LENGTH,
  MAX_NAMESPACE_LENGTH,
  MemoryError,
  normalizeFilter,
  normalizeImportEntry,
  normalizeStoreInput,
  normalizeTimestamp,
  type StoreInput,
  validateKey,
  validateNamespace,
  validateQuery,
  validateSessionId,
} from "../src/index.js";

// docs/input-rules.md, pinned rule by rule.

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

describe("namespaces", () => {
  it.each([
    ["one character", "a"],
    ["an email", "alice@example.com"],
    ["tenant:project", "acme:billing"],
    ["non-ASCII", "Zürich-团队"],
    ["dots and slashes", "../team/a.b"],
    ["spaces inside", "team a"],
    ["emoji", "🚀 launch"],
    ["256 characters", "n".repeat(MAX_NAMESPACE_LENGTH)],
    ["256 non-ASCII characters", "ä".repeat(MAX_NAMESPACE_LENGTH)],
  ])("accepts %s, unchanged", (_, namespace) => {
    expect(MAX_NAMESPACE_LENGTH).toBe(256);
    expect(validateNamespace(namespace)).toBe(namespace);
    expect(normalizeStoreInput({ key: "k", content: "c", namespace }).namespace).toBe(namespace);
    expect(normalizeFilter({ namespace }).namespace).toBe(namespace);
  });

  it("compares exactly: no Unicode normalization, case folding or trimming", () => {
    const composed = "\u00c4"; // Ä
    const decomposed = "A\u0308"; // A + combining diaeresis
    expect(validateNamespace(composed)).toBe(composed);
    expect(validateNamespace(decomposed)).toBe(decomposed);
    expect(validateNamespace(composed)).not.toBe(validateNamespace(decomposed));
    expect(validateNamespace("Team")).toBe("Team");
    expect(validateNamespace(" team ")).toBe(" team ");
  });

  it.each([
    ["257 characters", "n".repeat(257), /^namespace is 257 characters long; the limit is 256/],
    ["empty", "", /^namespace is empty/],
    ["blank", "   ", /^namespace is empty/],
    ["a NUL", "a\u0000", /^namespace contains a NUL/],
    ["a tab", "a\tb", /^namespace contains the control character \\u0009 at position 1/],
    ["a line break", "a\nb", /^namespace contains the control character \\u000a/],
    ["DEL", "a\u007f", /^namespace contains the control character \\u007f/],
    ["a C1 control", "a\u0085", /^namespace contains the control character \\u0085/],
    ["a lone surrogate", "a\ud800", /^namespace contains a lone UTF-16 surrogate/],
    ["null", null, /^namespace is null; leave the field out/],
    ["a number", 7, /^namespace must be a string, got number/],
  ])("refuses %s", (_, namespace, message) => {
    expect(invalid(() => validateNamespace(namespace))).toMatch(message);
  });
});

describe("keys", () => {
  it("accepts 1 to 1,024 characters and refuses 1,025", () => {
    expect(MAX_KEY_LENGTH).toBe(1024);
    expect(validateKey("k")).toBe("k");
    expect(validateKey("k".repeat(1024))).toHaveLength(1024);
    expect(invalid(() => validateKey("k".repeat(1025)))).toMatch(
      /^key is 1025 characters long; the limit is 1024/,
    );
  });

  it("accepts any 512 characters of any script, and refuses more than 1,536 UTF-8 bytes", () => {
    expect(MAX_KEY_BYTES).toBe(1536);
    expect(validateKey("記".repeat(512))).toHaveLength(512);
    expect(validateKey("🚀".repeat(384))).toHaveLength(768);
    expect(invalid(() => validateKey("記".repeat(513)))).toMatch(
      /^key is 1539 bytes long in UTF-8; the limit is 1536 bytes/,
    );
  });

  it.each([".", "..", "./..", "../../x", "a/b", "%2e%2e", "key with spaces", "?x=1#y"])(
    "keeps the dot-segment or URL-looking key %j exactly",
    (key) => {
      expect(validateKey(key)).toBe(key);
    },
  );

  it("keeps tabs, line breaks and other control characters in keys (stored keys stay reachable)", () => {
    for (const key of ["a\tb", "line\n", "bell\u0007", "c1\u0085"])
      expect(validateKey(key)).toBe(key);
    expect(invalid(() => validateKey("a\u0000b"))).toMatch(/^key/);
  });

  it.each([
    ["a lone high surrogate", "k\ud800", /^key contains a lone UTF-16 surrogate/],
    ["a lone low surrogate", "\udc00k", /^key contains a lone UTF-16 surrogate/],
    ["null", null, /^key is null/],
  ])("refuses a key with %s", (_, key, message) => {
    expect(invalid(() => validateKey(key))).toMatch(message);
  });

  it("names id and supersededBy when they break the key rules", () => {
    const entry = (fields: Partial<ImportEntry>) =>
      normalizeImportEntry({ key: "k", content: "c", ...fields } as ImportEntry);
    expect(invalid(() => entry({ id: "a\ud800" }))).toMatch(/^id contains a lone/);
    expect(invalid(() => entry({ supersededBy: "x".repeat(1025) }))).toMatch(/^supersededBy is/);
  });
});

describe("session ids", () => {
  it("follow the key rules: any text without NUL or lone surrogates, up to 256 characters", () => {
    expect(validateSessionId("chat:42@alice")).toBe("chat:42@alice");
    expect(validateSessionId("s\r\n")).toBe("s\r\n");
    expect(invalid(() => validateSessionId("s\u0000"))).toMatch(/^sessionId/);
    expect(invalid(() => validateSessionId("s".repeat(257)))).toMatch(/limit is 256/);
  });
});

describe("content", () => {
  it("is stored byte-for-byte, control characters included, but not NUL or lone surrogates", () => {
    const content = "  tab\there\r\nbell\u0007 \u0085 ﬁ e\u0301 ";
    expect(normalizeStoreInput({ key: "k", content }).content).toBe(content);
    expect(invalid(() => normalizeStoreInput({ key: "k", content: "a\u0000" }))).toMatch(
      /^content contains a NUL/,
    );
    expect(invalid(() => normalizeStoreInput({ key: "k", content: "a\udfff" }))).toMatch(
      /^content contains a lone UTF-16 surrogate/,
    );
  });
});

describe("recall queries", () => {
  it("accept any well-formed text, empty included", () => {
    for (const query of ["", "  ", "*", "NEAR(a b)", "記憶", "🚀"]) {
      expect(validateQuery(query)).toBe(query);
    }
  });

  it.each([
    ["a lone high surrogate", "coffee \ud800", /^query contains a lone UTF-16 surrogate/],
    ["a lone low surrogate", "\udc00", /^query contains a lone UTF-16 surrogate/],
    ["a NUL", "a\u0000b", /^query contains a NUL/],
    ["null", null, /^query is null/],
    ["a number", 1, /^query must be a string, got number/],
  ])("refuse %s", (_, query, message) => {
    expect(invalid(() => validateQuery(query))).toMatch(message);
  });
});

describe("JSON null for an optional field", () => {
  it.each(["category", "namespace", "sessionId", "importance", "embedding"] as const)(
    "store refuses %s: null instead of treating it as left out",
    (field) => {
      const input = { key: "k", content: "c", [field]: null } as unknown as StoreInput;
      expect(invalid(() => normalizeStoreInput(input))).toMatch(
        new RegExp(`^${field} is null; leave the field out`),
      );
    },
  );

  it.each(["id", "createdAt", "updatedAt", "supersededBy"] as const)(
    "import refuses %s: null",
    (field) => {
      const entry = { key: "k", content: "c", [field]: null } as unknown as ImportEntry;
      expect(invalid(() => normalizeImportEntry(entry))).toMatch(new RegExp(`^${field} is null`));
    },
  );

  it.each(["namespace", "sessionId", "since", "until", "categories", "includeSuperseded"])(
    "filters refuse %s: null",
    (field) => {
      expect(invalid(() => normalizeFilter({ [field]: null }))).toMatch(
        new RegExp(`^${field} is null`),
      );
    },
  );
});

describe("timestamps", () => {
  it.each([
    ["2026-01-31T12:00:00Z", "2026-01-31T12:00:00.000Z"],
    ["2026-01-31T12:00:00.5Z", "2026-01-31T12:00:00.500Z"],
    ["2026-01-31T12:00:00.123456789Z", "2026-01-31T12:00:00.123Z"],
    ["2026-01-31T14:00:00+02:00", "2026-01-31T12:00:00.000Z"],
    ["2026-01-31T12:00:00-00:00", "2026-01-31T12:00:00.000Z"],
    ["2026-01-31", "2026-01-31T00:00:00.000Z"],
    ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"],
    ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
  ])("accepts %j as %j", (value, stored) => {
    expect(normalizeTimestamp(value)).toBe(stored);
  });

  it.each([
    ["lower-case t", "2026-01-31t12:00:00Z"],
    ["lower-case z", "2026-01-31T12:00:00z"],
    ["a space instead of T", "2026-01-31 12:00:00Z"],
    ["an offset without a colon", "2026-01-31T12:00:00+0000"],
    ["an hour-only offset", "2026-01-31T12:00:00+02"],
    ["no offset", "2026-01-31T12:00:00"],
    ["no seconds", "2026-01-31T12:00Z"],
    ["a leading space", " 2026-01-31T12:00:00Z"],
    ["a trailing space", "2026-01-31T12:00:00Z "],
    ["a trailing line break", "2026-01-31\n"],
    ["an empty fraction", "2026-01-31T12:00:00.Z"],
    ["ten fraction digits", "2026-01-31T12:00:00.1234567890Z"],
    ["a leap second", "2026-12-31T23:59:60Z"],
    ["an expanded year", "+010000-01-01T00:00:00Z"],
    ["a two-digit year", "26-01-31"],
  ])("refuses %s", (_, value) => {
    expect(invalid(() => normalizeTimestamp(value, "since"))).toMatch(
      /^since ".*" is not a valid time; use RFC 3339/,
    );
  });

  it("refuses times that leave 0001..9999 once converted to UTC", () => {
    expect(invalid(() => normalizeTimestamp("0001-01-01T00:30:00+01:00", "until"))).toMatch(
      /^until ".*" is out of range; times go from 0001-01-01T00:00:00Z/,
    );
    expect(invalid(() => normalizeTimestamp("9999-12-31T23:00:00-02:00"))).toMatch(
      /is out of range/,
    );
  });

  it("applies the same form to filters and imported entries", () => {
    expect(invalid(() => normalizeFilter({ since: "2026-01-31t00:00:00z" }))).toMatch(/^since /);
    expect(
      invalid(() =>
        normalizeImportEntry({ key: "k", content: "c", createdAt: "2026-01-31 00:00:00+0000" }),
      ),
    ).toMatch(/^createdAt /);
  });
});
