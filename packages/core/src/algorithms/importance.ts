import type { Category } from "@memory/api";

/** Base importance by category (DESIGN section 7). */
export const CATEGORY_BASE_IMPORTANCE = {
  core: 0.7,
  daily: 0.3,
  conversation: 0.2,
  custom: 0.4,
} as const;

/** Words that signal a decision or rule; each adds 0.1, at most +0.2 in all. */
export const HIGH_SIGNAL_WORDS = [
  "decision",
  "always",
  "never",
  "important",
  "critical",
  "must",
  "requirement",
  "policy",
  "rule",
  "principle",
] as const;

const KEYWORD_BOOST = 0.1;
const MAX_KEYWORD_BOOST = 0.2;
const SIGNAL_SET = new Set<string>(HIGH_SIGNAL_WORDS);

/** Base importance of a category. */
export function baseImportance(category: Category): number {
  const builtIn = category as keyof typeof CATEGORY_BASE_IMPORTANCE;
  // Own keys only: `in` would also see Object.prototype, so the (valid) custom categories
  // "toString" or "constructor" would read a function and give NaN.
  return category !== "custom" && Object.hasOwn(CATEGORY_BASE_IMPORTANCE, builtIn)
    ? CATEGORY_BASE_IMPORTANCE[builtIn]
    : CATEGORY_BASE_IMPORTANCE.custom;
}

/**
 * Importance in 0..1: the category's base plus 0.1 per distinct high-signal word in the text
 * (whole words, case-insensitive), the boost capped at +0.2 and the total at 1.0.
 */
export function computeImportance(content: string, category: Category): number {
  const words = new Set(content.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  let hits = 0;
  for (const word of words) if (SIGNAL_SET.has(word)) hits++;
  const boost = Math.min(MAX_KEYWORD_BOOST, hits * KEYWORD_BOOST);
  // Round away binary noise (0.7 + 0.2 = 0.8999999999999999) so thresholds like >= 0.8 are exact.
  return Math.min(1, Math.round((baseImportance(category) + boost) * 1e9) / 1e9);
}
