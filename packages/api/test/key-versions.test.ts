import { describe, expect, it } from "vitest";
import {
  assertNotVersionKey,
  HISTORY_VERSIONS_MAX,
  MemoryError,
  parseVersionKey,
  validateKey,
  versionKey,
  versionKeys,
} from "../src/index.js";

describe("version keys (<key>::history:<n>)", () => {
  it("round-trips a key and its slot, for every slot", () => {
    const keys = versionKeys("city");
    expect(keys).toHaveLength(HISTORY_VERSIONS_MAX);
    expect(keys[0]).toBe("city::history:1");
    expect(keys.map((key) => parseVersionKey(key))).toEqual(
      keys.map((_, index) => ({ key: "city", slot: index + 1 })),
    );
    expect(parseVersionKey(versionKey("a::history:2", 3))).toEqual({
      key: "a::history:2",
      slot: 3,
    });
  });

  it("reads only the reserved form as a version", () => {
    for (const key of [
      "city",
      "city::history:0",
      "city::history:101",
      "city::history:01",
      "city::history:x",
      "::history:1",
      "  ::history:1",
      "city::history:1 ",
    ])
      expect(parseVersionKey(key), key).toBeUndefined();
  });

  it("refuses the reserved form for writes with INVALID_INPUT naming the key it versions", () => {
    expect(() => assertNotVersionKey("plain")).not.toThrow();
    const error = (() => {
      try {
        assertNotVersionKey("city::history:7");
      } catch (caught) {
        return caught;
      }
    })();
    expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
    expect((error as Error).message).toContain('here "city"');
  });

  it("applies the key limits to the key a version belongs to", () => {
    const longest = "k".repeat(1024);
    expect(validateKey(versionKey(longest, 100))).toBe(versionKey(longest, 100));
    expect(() => validateKey(versionKey("k".repeat(1025), 1))).toThrow(/1024/);
    expect(() => validateKey("a\u0000b::history:1")).toThrow(/NUL/);
  });
});
