/** Lower-cased word set of a text (Unicode letters and digits). */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * Jaccard similarity of the two texts' word sets: |A ∩ B| / |A ∪ B|. Two texts without words
 * give 0 (nothing in common to compare), never NaN.
 */
export function jaccardSimilarity(a: string, b: string): number {
  const setA = wordSet(a);
  const setB = wordSet(b);
  if (setA.size === 0 || setB.size === 0) return 0;
  let intersection = 0;
  for (const word of setA) if (setB.has(word)) intersection++;
  return intersection / (setA.size + setB.size - intersection);
}
