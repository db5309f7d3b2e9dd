import { describe, expect, it } from "vitest";
import { readFact } from "../src/index.js";

describe("readFact keeps what it read", () => {
  it("gives each caller its own copy of a text read before", () => {
    const text = "The user's sister Maya moved to Rome last month";
    const first = readFact(text);
    const expected = structuredClone(first);
    first.value.push("changed by a caller");
    first.subject!.nodes.length = 0;
    const again = readFact(text);
    expect(again).toEqual(expected);
    expect(again).not.toBe(first);
  });
});
