import { gaussian, seededRandom } from "@memory/testkit";

/** Synthetic benchmark data: clustered vectors (a mixture of Gaussians) and Zipf-distributed text. */

// Re-exported under the name the benchmark already uses.
export const rng = seededRandom;

function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

/** `count` unit vectors around `clusters` random centres; noise 1.0 per unit of centre spread. */
export function clusteredVectors(
  count: number,
  dims: number,
  clusters: number,
  seed: number,
): Float32Array[] {
  const random = rng(seed);
  const centres = Array.from({ length: clusters }, () =>
    normalize(Float32Array.from({ length: dims }, () => gaussian(random))),
  );
  // Within-cluster noise comparable to the centre's length: neighbours have cosine ~0.5, like
  // real sentence embeddings of one topic, so the ranking inside a cluster is not trivial.
  const sigma = 1 / Math.sqrt(dims);
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(random() * clusters)]!;
    const vector = new Float32Array(dims);
    for (let i = 0; i < dims; i++) vector[i] = centre[i]! + sigma * gaussian(random);
    return normalize(vector);
  });
}

const SYLLABLES = [
  "ka",
  "ri",
  "mo",
  "ten",
  "sa",
  "lu",
  "pe",
  "dor",
  "vi",
  "na",
  "qu",
  "el",
  "zo",
  "han",
  "mi",
  "ro",
  "ta",
  "gen",
];

/** Text whose word frequencies follow Zipf's law (s = 1.07, like English). */
export class ZipfText {
  readonly words: string[];
  readonly #cdf: Float64Array;
  readonly #random: () => number;

  constructor(vocabulary: number, seed: number) {
    this.#random = rng(seed);
    const seen = new Set<string>();
    const words: string[] = [];
    while (words.length < vocabulary) {
      const length = 1 + Math.floor(this.#random() * 4);
      let word = "";
      for (let i = 0; i < length; i++)
        word += SYLLABLES[Math.floor(this.#random() * SYLLABLES.length)];
      if (!seen.has(word)) {
        seen.add(word);
        words.push(word);
      }
    }
    this.words = words;
    this.#cdf = new Float64Array(vocabulary);
    let sum = 0;
    for (let rank = 0; rank < vocabulary; rank++) {
      sum += 1 / (rank + 1) ** 1.07;
      this.#cdf[rank] = sum;
    }
    for (let rank = 0; rank < vocabulary; rank++) this.#cdf[rank]! /= sum;
  }

  word(): string {
    const target = this.#random();
    let low = 0;
    let high = this.#cdf.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#cdf[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return this.words[low]!;
  }

  sentence(min: number, max: number): string {
    const length = min + Math.floor(this.#random() * (max - min + 1));
    return Array.from({ length }, () => this.word()).join(" ");
  }
}
