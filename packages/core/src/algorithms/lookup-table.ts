/**
 * A constant table looked up by words from stored or typed text, without a prototype: a word
 * such as "constructor" or "valueof" then finds nothing, where a plain object literal would hand
 * back one of `Object.prototype`'s functions (a store of "... said the constructor" threw in the
 * conflict check and was lost).
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
