import { describe, expect, it } from "vitest";
import { cosineSimilarity, l2Normalize } from "../src/index.js";

describe("cosineSimilarity", () => {
  it("is 1 for identical vectors and for vectors pointing the same way", () => {
    expect(cosineSimilarity([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 15);
  });

  it("is -1 for opposite vectors", () => {
    expect(cosineSimilarity([1, -2, 0.5], [-1, 2, -0.5])).toBe(-1);
  });

  it("is 0 for orthogonal vectors", () => {
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 1, 0], [1, -1, 5])).toBe(0);
  });

  it("is 0.5 at 60 degrees", () => {
    expect(cosineSimilarity([1, 0], [0.5, Math.sqrt(3) / 2])).toBeCloseTo(0.5, 15);
  });

  it("is 0, not NaN, when a vector is all zeros", () => {
    expect(cosineSimilarity([0, 0, 0], [1, 2, 3])).toBe(0);
    expect(cosineSimilarity([1, 2, 3], [0, 0, 0])).toBe(0);
    expect(cosineSimilarity([0, 0], [0, 0])).toBe(0);
  });

  it("is 0 for a length mismatch or empty vectors", () => {
    expect(cosineSimilarity([1, 2, 3], [1, 2])).toBe(0);
    expect(cosineSimilarity([], [])).toBe(0);
  });

  it("never leaves [-1, 1] through rounding", () => {
    const v = Array.from({ length: 999 }, (_, i) => Math.sin(i) * 1e-3 + 0.1);
    const c = cosineSimilarity(v, v);
    expect(c).toBeLessThanOrEqual(1);
    expect(c).toBeGreaterThan(1 - 1e-12);
  });

  it("accumulates a 1536-value Float32Array in float64", () => {
    const a = new Float32Array(1536);
    const b = new Float32Array(1536);
    for (let i = 0; i < a.length; i++) {
      a[i] = Math.sin(i * 0.37) * 0.05 + 0.01;
      b[i] = Math.cos(i * 0.11) * 0.05 + 0.012;
    }
    // float64 reference over the exact float32 values
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let i = 0; i < a.length; i++) {
      dot += a[i]! * b[i]!;
      na += a[i]! * a[i]!;
      nb += b[i]! * b[i]!;
    }
    const reference = dot / (Math.sqrt(na) * Math.sqrt(nb));
    // float32 accumulation for contrast: Math.fround after every step
    let dot32 = 0;
    let na32 = 0;
    let nb32 = 0;
    for (let i = 0; i < a.length; i++) {
      dot32 = Math.fround(dot32 + Math.fround(a[i]! * b[i]!));
      na32 = Math.fround(na32 + Math.fround(a[i]! * a[i]!));
      nb32 = Math.fround(nb32 + Math.fround(b[i]! * b[i]!));
    }
    const float32Result = Math.fround(dot32 / Math.fround(Math.sqrt(na32) * Math.sqrt(nb32)));
    expect(Math.abs(float32Result - reference)).toBeGreaterThan(1e-12);
    expect(Math.abs(cosineSimilarity(a, b) - reference)).toBeLessThan(1e-12);
  });

  it("accepts a Float32Array against a plain array", () => {
    expect(cosineSimilarity(new Float32Array([1, 0, 0]), [0, 1, 0])).toBe(0);
    expect(cosineSimilarity(new Float32Array([0.5, 0.5]), [1, 1])).toBeCloseTo(1, 15);
  });
});

describe("l2Normalize", () => {
  it("scales to unit length and keeps the direction", () => {
    const [x, y] = l2Normalize([3, 4]);
    expect(x).toBeCloseTo(0.6, 15);
    expect(y).toBeCloseTo(0.8, 15);
    const v = l2Normalize(new Float32Array([1, 2, 2]));
    expect(Math.hypot(...v)).toBeCloseTo(1, 15);
    expect(cosineSimilarity(v, [1, 2, 2])).toBeCloseTo(1, 15);
  });

  it("returns a zero vector unchanged and does not mutate its input", () => {
    expect(l2Normalize([0, 0, 0])).toEqual([0, 0, 0]);
    const input = [3, 4];
    l2Normalize(input);
    expect(input).toEqual([3, 4]);
  });

  it("returns a plain array", () => {
    expect(Array.isArray(l2Normalize(new Float32Array([1, 1])))).toBe(true);
  });
});

describe("cosineSimilarity of non-finite input", () => {
  it("is 0 for NaN or Infinity on either side", () => {
    expect(cosineSimilarity([1, Number.NaN], [1, 0])).toBe(0);
    expect(cosineSimilarity([1, 0], [Number.POSITIVE_INFINITY, 0])).toBe(0);
    expect(cosineSimilarity([Number.NEGATIVE_INFINITY, 1], [1, 1])).toBe(0);
  });
});
