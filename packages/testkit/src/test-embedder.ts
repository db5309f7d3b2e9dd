import { type EmbeddingProvider, embeddingFingerprint } from "@memory/api";
import { l2Normalize } from "@memory/core";

/**
 * Words that the test embedder maps to one concept, so vector recall can find what keyword
 * recall cannot ("automobile" finds "car"). Real embedders learn this; tests need it exact.
 */
export const TEST_SYNONYMS: readonly (readonly string[])[] = [
  ["car", "automobile", "vehicle", "sedan"],
  ["coffee", "espresso", "latte", "cappuccino"],
  ["dog", "puppy", "canine", "hound"],
  ["password", "credentials", "login", "passphrase"],
  ["happy", "glad", "joyful", "cheerful"],
  ["house", "home", "residence", "dwelling"],
];

export interface TestEmbedderOptions {
  /** Vector length; default 64. */
  dimensions?: number;
  /** Model id; changing it changes the fingerprint. Default `hash-v1`. */
  model?: string;
  /** Fail every call (to test that embedding failures never lose writes). */
  fail?: boolean;
}

/** A deterministic embedder with a call counter, for tests. */
export interface TestEmbedder extends EmbeddingProvider {
  /** Texts embedded so far (cache tests check it did not grow). */
  readonly calls: number;
  /** Makes subsequent calls fail (or succeed again). */
  setFailing(fail: boolean): void;
}

function fnv1a(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Bag-of-concepts embedding: every word (synonyms folded into one concept, a trailing "s"
 * dropped) adds a signed unit at two hashed positions; the sum is L2-normalized. Texts sharing
 * words or concepts get a high cosine, unrelated texts about 0; the same text always gives the
 * same vector, alone or in a batch.
 */
export function createTestEmbedder(options: TestEmbedderOptions = {}): TestEmbedder {
  const dimensions = options.dimensions ?? 64;
  const model = options.model ?? "hash-v1";
  const concepts = new Map<string, string>();
  for (const group of TEST_SYNONYMS) for (const word of group) concepts.set(word, group[0]!);
  let calls = 0;
  let failing = options.fail ?? false;
  const vector = (text: string): number[] => {
    const out = new Array<number>(dimensions).fill(0);
    for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const word = raw.length > 3 && raw.endsWith("s") ? raw.slice(0, -1) : raw;
      const concept = concepts.get(word) ?? word;
      for (const seed of [1, 2]) {
        const hash = fnv1a(concept, seed);
        out[hash % dimensions]! += hash & 0x80000000 ? 1 : -1;
      }
    }
    return l2Normalize(out);
  };
  const embedder: TestEmbedder = {
    name: "test",
    model,
    dimensions,
    fingerprint: embeddingFingerprint("test", model, dimensions),
    // A bag of hashed words: unrelated texts sit near 0 (hash collisions reach ~0.1); one
    // shared word between a two-word query and a five-word text gives ~0.3.
    similarityCalibration: { floor: 0.1, full: 0.5 },
    get calls() {
      return calls;
    },
    setFailing(fail: boolean) {
      failing = fail;
    },
    async embed(texts) {
      if (failing) throw new Error("test embedder is set to fail");
      calls += texts.length;
      return texts.map(vector);
    },
    async embedOne(text) {
      const [result] = await embedder.embed([text]);
      return result!;
    },
  };
  return embedder;
}
