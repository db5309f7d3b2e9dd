/**
 * `compute` remembered by its text (a word, a candidate's content): at most `max` results are
 * kept, and all are dropped at once when full (cheaper than an LRU's bookkeeping; the same
 * words and candidates come back within minutes). Results are shared: a caller that changes
 * one must copy it first.
 */
export function textMemo<T>(compute: (text: string) => T, max: number): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    let result = kept.get(text);
    if (result === undefined) {
      result = compute(text);
      if (kept.size >= max) kept.clear();
      kept.set(text, result);
    }
    return result;
  };
}
