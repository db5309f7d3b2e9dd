/**
 * Masked mean pooling: averages the token vectors of real tokens only, so padding added to make
 * a batch rectangular does not change a text's embedding. Then L2-normalizes, which makes
 * cosine similarity a plain dot product, as sentence-transformers models expect.
 */
export function meanPoolAndNormalize(
  hidden: Float32Array,
  mask: readonly number[][],
  sequenceLength: number,
  hiddenSize: number,
): number[][] {
  return mask.map((rowMask, row) => {
    const sum = new Float64Array(hiddenSize);
    let count = 0;
    for (let position = 0; position < sequenceLength; position++) {
      if (rowMask[position] !== 1) continue;
      count++;
      const offset = (row * sequenceLength + position) * hiddenSize;
      for (let dim = 0; dim < hiddenSize; dim++) {
        sum[dim] = (sum[dim] as number) + (hidden[offset + dim] as number);
      }
    }
    const mean = Array.from(sum, (value) => value / Math.max(count, 1));
    const norm = Math.sqrt(mean.reduce((total, value) => total + value * value, 0));
    return norm === 0 ? mean : mean.map((value) => value / norm);
  });
}

/** L2-normalizes rows of an already pooled `[batch, hidden]` output. */
export function normalizeRows(pooled: Float32Array, rows: number, hiddenSize: number): number[][] {
  return Array.from({ length: rows }, (_, row) => {
    const vector = Array.from(pooled.subarray(row * hiddenSize, (row + 1) * hiddenSize));
    const norm = Math.sqrt(vector.reduce((total, value) => total + value * value, 0));
    return norm === 0 ? vector : vector.map((value) => value / norm);
  });
}
