import { EmbeddingError, type MemoryError } from "@memory/api";
import { type CallKind, malformedResponse } from "./http-errors.js";
import type { ProviderIdentity } from "./remote-settings.js";

/**
 * Decodes an OpenAI-style base64 embedding: little-endian float32 values, which is what the
 * API sends for `encoding_format: "base64"` (a quarter of the JSON size of decimal floats).
 */
export function decodeBase64Floats(encoded: string): number[] {
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.byteLength % 4 !== 0) throw new Error("base64 payload is not a whole number of floats");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Array<number>(bytes.byteLength / 4);
  for (let index = 0; index < values.length; index++) {
    values[index] = view.getFloat32(index * 4, true);
  }
  return values;
}

/** Scales a vector to unit length (zero vectors stay zero). */
export function l2Normalize(vector: number[]): number[] {
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (sum === 0) return vector;
  const norm = Math.sqrt(sum);
  return vector.map((value) => value / norm);
}

/**
 * Checks one batch of vectors: one per input, each with the configured length and only finite
 * numbers. A wrong length almost always means the `dimensions` option does not match the model,
 * and storing such vectors would corrupt the index, so it fails loudly.
 */
export function checkVectors(
  vectors: unknown,
  expectedCount: number,
  dimensions: number,
  identity: ProviderIdentity,
  model: string,
  kind: CallKind = "embedding",
): number[][] {
  const fail = (problem: string): MemoryError => malformedResponse(identity, kind, problem);
  if (!Array.isArray(vectors)) throw fail("no list of embeddings");
  if (vectors.length !== expectedCount) {
    throw fail(`expected ${expectedCount} embeddings, got ${vectors.length}`);
  }
  for (const vector of vectors) {
    if (!Array.isArray(vector) || vector.some((value) => typeof value !== "number")) {
      throw fail("an embedding is not a list of numbers");
    }
    if (vector.length !== dimensions) {
      throw wrongDimensions(identity, model, dimensions, vector.length);
    }
    if (vector.some((value: number) => !Number.isFinite(value))) {
      throw fail("an embedding contains NaN or Infinity");
    }
  }
  return vectors as number[][];
}

function wrongDimensions(
  identity: ProviderIdentity,
  model: string,
  expected: number,
  actual: number,
): MemoryError {
  return new EmbeddingError(
    `${identity.label} model ${model} returned ${actual}-dimensional vectors, but dimensions is ${expected}: set the dimensions option (embedding_dims in memory.toml) to ${actual}, or pick a model that supports ${expected}.`,
    { details: { provider: identity.label, model, expected, actual } },
  );
}
