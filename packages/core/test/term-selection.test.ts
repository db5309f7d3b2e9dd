import type { QueryTerm } from "@memory/api";
import { describe, expect, it } from "vitest";
import { KEYWORD_POOL_COVER, KEYWORD_POSTINGS_BUDGET, selectingTerms } from "../src/index.js";

const term = (text: string): QueryTerm => ({ text, prefix: false, stop: false });
const texts = (terms: readonly QueryTerm[]) => terms.map((t) => t.text);

describe("selectingTerms: which terms select keyword candidates", () => {
  const terms = [term("name"), term("rare"), term("absent"), term("mid"), term("often")];
  // pool 10: the rarer terms must cover 4 x 10 = 40 postings before the common ones stop.
  const frequency = [3_000, 5, 0, 30, 100];

  it("adds terms rarest first until they cover KEYWORD_POOL_COVER pools", () => {
    expect(KEYWORD_POOL_COVER).toBe(4);
    // 5 + 30 = 35 < 40: `often` still selects; then 135 >= 40 and `name` (a speaker's name in
    // most entries) does not.
    expect(texts(selectingTerms(terms, frequency, { pool: 10 }))).toEqual(["rare", "mid", "often"]);
    // A larger pool needs the common term too.
    expect(texts(selectingTerms(terms, frequency, { pool: 40 }))).toEqual([
      "rare",
      "mid",
      "often",
      "name",
    ]);
  });

  it("without a pool, only the postings budget stops; at least one term always selects", () => {
    expect(texts(selectingTerms(terms, frequency))).toEqual(["rare", "mid", "often", "name"]);
    expect(texts(selectingTerms(terms, [50_000, 3, 0, 900, 0]))).toEqual(["rare", "mid"]);
    expect(
      selectingTerms([term("everywhere")], [KEYWORD_POSTINGS_BUDGET * 3], { pool: 1 }),
    ).toHaveLength(1);
    expect(selectingTerms(terms, [0, 0, 0, 0, 0], { pool: 10 })).toEqual([]);
  });
});
