/**
 * Cosine similarity of two vectors, accumulated in float64 so long float32 vectors do not lose
 * precision. A zero vector, a length mismatch or a non-finite value gives 0 rather than NaN, so
 * callers never have to special-case missing or broken embeddings.
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  // NaN or Infinity anywhere (a broken provider) must never rank anything: 0, not NaN.
  if (normA === 0 || normB === 0 || !Number.isFinite(dot + normA + normB)) return 0;
  const similarity = dot / (Math.sqrt(normA) * Math.sqrt(normB));
  // Rounding can push identical vectors a hair past 1.
  return Math.max(-1, Math.min(1, similarity));
}

/** Scales a vector to unit length (a zero vector is returned unchanged). */
export function l2Normalize(vector: ArrayLike<number>): number[] {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  const out = Array.from(vector);
  if (norm === 0) return out;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! * scale;
  return out;
}
