import type { QueryTerm, TextLanguage } from "@memory/api";
import { analyzeQuery, analyzeText, searchTerms } from "./text-analyzer.js";

/**
 * Question-word handling (English): what a question asks for changes which entries can answer it.
 *
 * - An entry that is itself a question ("What's your best camping memory?") holds no answer to
 *   a question, and autosaved user questions would otherwise come back as the best "memory" for
 *   the same question. It counts `question_entry_penalty` less when the query is a question.
 * - A "when" question is answered by an entry that places something in time ("last Saturday",
 *   "two days ago", "in May"). Such entries count `temporal_boost` more for those questions.
 *
 * - An entry attributed to someone the query names ("Caroline: I researched adoption agencies"
 *   for "What did Caroline research?") is about them: what a person did is told by that person.
 *   Conversation turns are commonly stored with a leading speaker label (`user: ...`,
 *   `Alice: ...`); when a query term names that label, the entry counts `speaker_boost` more.
 *
 * Measured on the LoCoMo development split (docs/retrieval-quality.md): each is flat over a range
 * of values, so neither is tuned to single questions.
 */

const INTERROGATIVE =
  /^\s*(what|when|where|who|whom|whose|which|why|how|do|does|did|is|are|was|were|can|could|should|would|will|have|has|had)\b/i;

/** A question: ends with a question mark, or starts with an interrogative word. */
export function isQuestion(text: string): boolean {
  return endsWithQuestion(text) || INTERROGATIVE.test(text);
}

/**
 * An entry whose text ends with a question (what it says last is asked, not told): a question
 * mark, then nothing but white space. Read back from the end: the regular expression it
 * replaces (`/\?\s*$/`) tried every question mark in the text, and every candidate of every
 * recall asks.
 */
export function endsWithQuestion(text: string): boolean {
  let end = text.length - 1;
  while (end >= 0 && isSpace(text.charCodeAt(end))) end--;
  return end >= 0 && text.charCodeAt(end) === QUESTION_MARK;
}

const QUESTION_MARK = 0x3f;

/** JavaScript's `\s`, by UTF-16 code unit. */
function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** "When did...", "What date/day/month/year...", "How long ago...". */
export function asksWhen(query: string): boolean {
  return (
    /^\s*(when|what (date|time|day|month|year)|which (date|day|month|year))\b/i.test(query) ||
    /\bhow long ago\b/i.test(query)
  );
}

const DAY = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";
const MONTH =
  "january|february|march|april|may|june|july|august|september|october|november|december";
const PERIOD = `week|weekend|month|year|night|summer|winter|spring|fall|autumn|${DAY}`;
const TIME_EXPRESSION = new RegExp(
  `\\b(yesterday|today|tonight|tomorrow|ago|recently|lately|last (${PERIOD})|next (${PERIOD})|this (${PERIOD}|morning|afternoon|evening)|${MONTH}|${DAY}|(19|20)\\d\\d)\\b`,
  "i",
);

/** True when the text places something in time (a relative or calendar expression). */
export function mentionsTime(text: string): boolean {
  return TIME_EXPRESSION.test(text);
}

/** A leading "Name: " of one to three words (a speaker label), or undefined. */
const LABEL = /^\s*([^:\n]{1,40}?):\s/;

/**
 * Analyzed labels, kept across recalls: every candidate of every recall asks, and a
 * conversation has a handful of speakers. Bounded: past this many labels of one language it
 * starts over.
 */
const LABEL_CACHE_MAX = 1_000;
const labelTerms = new Map<TextLanguage, Map<string, readonly string[]>>();
const NO_TERMS: readonly string[] = [];

/** The terms of an entry's leading speaker label (`Alice: ...` -> ["alic"]), or none. */
export function speakerTerms(
  content: string,
  language: TextLanguage = "english",
): readonly string[] {
  const label = LABEL.exec(content)?.[1];
  if (label === undefined) return NO_TERMS;
  // By language, then label: no key string is built per candidate.
  let known = labelTerms.get(language);
  if (!known) {
    known = new Map();
    labelTerms.set(language, known);
  }
  let terms = known.get(label);
  if (terms === undefined) {
    terms = label.trim().split(/\s+/).length > 3 ? NO_TERMS : analyzeText(label, language);
    if (known.size >= LABEL_CACHE_MAX) known.clear();
    known.set(label, terms);
  }
  return terms;
}

/** What the query asks, as far as entries' relevance depends on it. */
export interface QueryIntent {
  question: boolean;
  when: boolean;
  /** The query's search terms (stop words dropped), to match speaker labels against. */
  terms: ReadonlySet<string>;
  language: TextLanguage;
}

/** `terms`: the query's search terms when the caller has them already (the recall engine). */
export function queryIntent(
  query: string,
  language: TextLanguage = "english",
  terms: readonly QueryTerm[] = searchTerms(analyzeQuery(query, language)),
): QueryIntent {
  return {
    question: isQuestion(query),
    when: asksWhen(query),
    terms: new Set(terms.map((term) => term.text)),
    language,
  };
}

export interface IntentWeights {
  questionPenalty: number;
  temporalBoost: number;
  speakerBoost: number;
}

/**
 * The factor for one entry: `1 + speakerBoost` when the query names the entry's speaker label,
 * times `1 - questionPenalty` when a question meets an entry ending with a question, times
 * `1 + temporalBoost` when a "when" question meets an entry that mentions a time. The caller
 * caps the product with the relevance at 1.
 */
export function intentFactor(intent: QueryIntent, content: string, weights: IntentWeights): number {
  let factor = 1;
  if (
    weights.speakerBoost > 0 &&
    speakerTerms(content, intent.language).some((term) => intent.terms.has(term))
  )
    factor *= 1 + weights.speakerBoost;
  if (intent.question && weights.questionPenalty > 0 && endsWithQuestion(content))
    factor *= 1 - weights.questionPenalty;
  if (intent.when && weights.temporalBoost > 0 && mentionsTime(content))
    factor *= 1 + weights.temporalBoost;
  return factor;
}
