import { rm } from "node:fs/promises";
import { MemoryError } from "@memory/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOnnxEmbeddings, WordPieceTokenizer } from "../src/onnx/index.js";
import { expectClose } from "./support/expect-close.js";
import { expectedVector, HIDDEN, tinyTokenizerJson, writeTinyBert } from "./support/tiny-bert.js";

const dirs: string[] = [];
async function modelDir(...args: Parameters<typeof writeTinyBert>): Promise<string> {
  const dir = await writeTinyBert(...args);
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const CLS = 2;
const SEP = 3;

describe("WordPiece tokenizer", () => {
  const tokenizer = new WordPieceTokenizer(tinyTokenizerJson() as never);

  it("lowercases, splits punctuation and wraps in [CLS] ... [SEP]", () => {
    expect(tokenizer.encode("Hello, WORLD!", 64).ids).toEqual([CLS, 4, 6, 5, 7, SEP]);
  });

  it("splits words into the longest known pieces and maps unknown words to [UNK]", () => {
    expect(tokenizer.encode("unhappiness dogs zebra", 64).ids).toEqual([
      CLS,
      8,
      9,
      10,
      18,
      19,
      1,
      SEP,
    ]);
  });

  it("strips accents like BERT uncased", () => {
    expect(tokenizer.encode("Café", 64).ids).toEqual([CLS, 11, SEP]);
  });

  it("truncates to maxTokens including the special tokens", () => {
    expect(tokenizer.encode("the cat sat on the mat", 5).ids).toEqual([CLS, 12, 13, 14, SEP]);
  });

  it("rejects tokenizers that are not WordPiece", () => {
    expect(() => new WordPieceTokenizer({ model: { type: "BPE", vocab: {} } } as never)).toThrow(
      /WordPiece/,
    );
  });
});

describe("onnx embedding provider", () => {
  const fp32 = { tokenTypes: true, int8: false };
  let dir: string;
  beforeAll(async () => {
    dir = await modelDir(fp32);
  });

  it("computes masked mean pooling + L2 norm of the model's last_hidden_state", async () => {
    const provider = createOnnxEmbeddings({ modelDir: dir, dimensions: HIDDEN, model: "tiny" });
    expect(provider.fingerprint).toBe(`onnx:tiny:${HIDDEN}`);
    const [vector] = await provider.embed(["hello world"]);
    const expected = expectedVector([CLS, 4, 5, SEP], fp32);
    expectClose(vector, expected, 5);
    await provider.close();
  });

  it("gives the same vectors in a padded batch as one by one", async () => {
    const provider = createOnnxEmbeddings({ modelDir: dir, dimensions: HIDDEN });
    const texts = ["hello", "the cat sat on the mat", "a dog run", ""];
    const batch = await provider.embed(texts);
    for (const [index, text] of texts.entries()) {
      const single = await provider.embedOne(text);
      expectClose(batch[index], single, 5);
    }
    expect(batch[0]).not.toEqual(batch[1]);
    await provider.close();
  });

  it("splits large inputs into batches of batchSize and keeps order", async () => {
    const provider = createOnnxEmbeddings({ modelDir: dir, dimensions: HIDDEN, batchSize: 2 });
    // Mixed lengths, so grouping by length reorders them internally.
    const texts = ["the cat sat on the mat", "hello", "a dog run", "cat", "hello world !"];
    const vectors = await provider.embed(texts);
    expect(vectors).toHaveLength(5);
    for (const [index, text] of texts.entries()) {
      expectClose(vectors[index], await provider.embedOne(text), 6);
    }
    await provider.close();
  });

  it("feeds only declared inputs: a model without token_type_ids works", async () => {
    const options = { tokenTypes: false, int8: false };
    const provider = createOnnxEmbeddings({
      modelDir: await modelDir(options),
      dimensions: HIDDEN,
    });
    const [vector] = await provider.embed(["cat"]);
    const expected = expectedVector([CLS, 13, SEP], options);
    expectClose(vector, expected, 5);
    await provider.close();
  });

  it("runs an int8-quantized graph", async () => {
    const options = { tokenTypes: true, int8: true };
    const provider = createOnnxEmbeddings({
      modelDir: await modelDir(options),
      dimensions: HIDDEN,
    });
    const [vector] = await provider.embed(["the dog"]);
    const expected = expectedVector([CLS, 12, 18, SEP], options);
    expectClose(vector, expected, 5);
    await provider.close();
  });

  it("truncates at maxTokens, from the option or the tokenizer's max_length", async () => {
    const long = "the cat sat on the mat";
    const prefix = [CLS, 12, 13, SEP];
    const fromOption = createOnnxEmbeddings({ modelDir: dir, dimensions: HIDDEN, maxTokens: 4 });
    const fromTokenizer = createOnnxEmbeddings({
      modelDir: await modelDir(fp32, 4),
      dimensions: HIDDEN,
    });
    const expected = expectedVector(prefix, fp32);
    for (const provider of [fromOption, fromTokenizer]) {
      const vector = await provider.embedOne(long);
      expectClose(vector, expected, 5);
      await provider.close();
    }
  });

  it("rejects a configured dimension the model does not produce", async () => {
    const provider = createOnnxEmbeddings({ modelDir: dir, dimensions: 384 });
    const error = await provider.embed(["hello"]).catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "EMBEDDING_FAILED")).toBe(true);
    expect((error as Error).message).toContain(
      `set the dimensions option (embedding_dims in memory.toml) to ${HIDDEN}`,
    );
    await provider.close();
  });

  it("reports a missing model directory as a ConfigError naming the option", async () => {
    const provider = createOnnxEmbeddings({
      modelDir: "/nonexistent/model-dir",
      dimensions: HIDDEN,
    });
    const error = await provider.embed(["x"]).catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "CONFIG")).toBe(true);
    expect((error as Error).message).toContain("modelDir");
  });

  it("does no I/O in the constructor and fails with a typed error after close", async () => {
    const provider = createOnnxEmbeddings({ modelDir: "/nonexistent", dimensions: HIDDEN });
    await provider.close();
    await provider.close();
    const error = await provider.embed(["x"]).catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
  });
});
