/**
 * `compute` remembered by its word: at most `max` results are kept, and all are dropped at
 * once when full (cheaper than an LRU's bookkeeping; a text's words repeat within minutes).
 */
export function wordMemo(compute: (word: string) => string, max: number): (word: string) => string {
  const kept = new Map<string, string>();
  return (word) => {
    let result = kept.get(word);
    if (result === undefined) {
      result = compute(word);
      if (kept.size >= max) kept.clear();
      kept.set(word, result);
    }
    return result;
  };
}
