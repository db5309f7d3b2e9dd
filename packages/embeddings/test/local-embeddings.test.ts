import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalEmbeddings, type LocalEmbeddingProvider } from "../src/local/index.js";
import { expectClose } from "./support/expect-close.js";

let provider: LocalEmbeddingProvider;
beforeAll(async () => {
  provider = createLocalEmbeddings();
  await provider.init();
}, 60_000);
afterAll(async () => {
  await provider.close();
});

/** The provider's live worker thread (a private field, read here only to observe its life). */
function workerOf(target: LocalEmbeddingProvider): Worker | undefined {
  return (target as unknown as { worker?: { handle: Worker } }).worker?.handle;
}

function dot(a: number[], b: number[]): number {
  return a.reduce((sum, value, index) => sum + value * (b[index] as number), 0);
}

function cosine(a: number[], b: number[]): number {
  return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
}

describe("local (Universal Sentence Encoder lite) provider", () => {
  it("has 512 dimensions and the fingerprint local:use-lite:512", () => {
    expect(provider.dimensions).toBe(512);
    expect(provider.fingerprint).toBe("local:use-lite:512");
  });

  it("scores paraphrases clearly above unrelated sentences", async () => {
    const [car, automobile, bananas, password, credentials] = await provider.embed([
      "The car would not start this morning.",
      "My automobile failed to start today.",
      "Bananas are rich in potassium.",
      "I forgot my password and cannot sign in.",
      "I can't remember my login credentials.",
    ]);
    const carPair = dot(car!, automobile!);
    const passwordPair = dot(password!, credentials!);
    expect(carPair).toBeGreaterThan(dot(car!, bananas!) + 0.3);
    expect(carPair).toBeGreaterThan(dot(automobile!, bananas!) + 0.3);
    expect(passwordPair).toBeGreaterThan(dot(password!, bananas!) + 0.3);
    expect(passwordPair).toBeGreaterThan(dot(password!, car!) + 0.2);
  });

  it("returns unit vectors", async () => {
    const vector = await provider.embedOne("Unit length please.");
    expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5);
  });

  it("gives the same vectors for a batch as one by one", async () => {
    const texts = [
      "First sentence here.",
      "A second, longer sentence with more words in it.",
      "Third.",
    ];
    const batch = await provider.embed(texts);
    for (const [index, text] of texts.entries()) {
      const single = await provider.embedOne(text);
      expectClose(batch[index], single, 5);
    }
  });

  it("keeps one row per text when empty strings are at the end or in the middle", async () => {
    const texts = ["Hello there.", "", "General Kenobi.", "   ", ""];
    const vectors = await provider.embed(texts);
    expect(vectors).toHaveLength(5);
    expect(vectors[1]).toEqual(new Array(512).fill(0));
    expect(vectors[4]).toEqual(new Array(512).fill(0));
    const kenobi = await provider.embedOne("General Kenobi.");
    expectClose(vectors[2], kenobi, 5);
    expect(await provider.embedOne("")).toEqual(new Array(512).fill(0));
  });

  it("splits texts longer than 128 tokens into windows instead of one oversized row", async () => {
    const sentence = "The quarterly report shows revenue growth in every region. ";
    const long = sentence.repeat(30);
    const windowed = await provider.embedOne(long);
    const oneWindow = createLocalEmbeddings({ windowTokens: 100_000 });
    const whole = await oneWindow.embedOne(long);
    await oneWindow.close();
    // Different code paths, same meaning: close but not identical.
    expect(windowed).not.toEqual(whole);
    expect(cosine(windowed, whole)).toBeGreaterThan(0.9);
    expect(cosine(windowed, await provider.embedOne(sentence))).toBeGreaterThan(0.8);
  }, 120_000); // loads a second model instance: sized for a busy 2-core machine, not a bound

  it("passes case through to the case-sensitive vocabulary", async () => {
    const [upper, lower] = await provider.embed(["PARIS IS IN FRANCE", "paris is in france"]);
    expect(upper).not.toEqual(lower);
  });

  it("runs each provider in its own worker; closing one does not affect another", async () => {
    const second = createLocalEmbeddings();
    await second.init();
    const first = workerOf(provider);
    expect(first).toBeDefined();
    expect(workerOf(second)).toBeDefined();
    expect(workerOf(second)?.threadId).not.toBe(first?.threadId);
    await second.close();
    expect(workerOf(provider)).toBe(first);
    // Closing one provider must not break the other.
    expect(await provider.embedOne("still works")).toHaveLength(512);
  });

  it("rejects use after close with a typed error", async () => {
    const closed = createLocalEmbeddings();
    await closed.close();
    await expect(closed.embed(["x"])).rejects.toThrow(/closed/);
  });
});
