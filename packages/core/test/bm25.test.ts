import { describe, expect, it } from "vitest";
import { indexTokens } from "../src/index.js";

describe("indexTokens", () => {
  it("lower-cases words and folds full-width characters", () => {
    expect(indexTokens("Hello, ＷＯＲＬＤ!")).toEqual(["hello", "world"]);
  });

  it("indexes CJK runs as bigrams, once each", () => {
    expect(indexTokens("記憶力")).toEqual(["記憶", "憶力"]);
    expect(indexTokens("記憶")).toEqual(["記憶"]);
  });

  it("splits mixed Latin/CJK words the same way queries do", () => {
    expect(indexTokens("ai記憶 test")).toEqual(["ai", "記憶", "test"]);
  });

  it("keeps repeats (term frequency)", () => {
    expect(indexTokens("tea tea")).toEqual(["tea", "tea"]);
  });
});
