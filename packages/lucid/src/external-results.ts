import { createHash } from "node:crypto";
import {
  type MemoryEntry,
  normalizeFilter,
  type RecallOptions,
  type SearchMode,
  type TextLanguage,
} from "@memory/api";
import {
  analyzeQuery,
  entryMatchesFilter,
  indexedTerms,
  KeywordScorer,
  LIKE_MAX_RELEVANCE,
  searchTerms,
  termMatches,
} from "@memory/core";
import type { ContextLine } from "./lucid-context-parser.js";
import { categoryOfTag } from "./tag-categories.js";

/** The key of an external line: `lucid:` + the first 16 hex digits of SHA-256 of its text. */
export function externalKey(text: string): string {
  return `lucid:${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
}

export interface ExternalScoring {
  query: string;
  mode: SearchMode;
  namespace: string;
  /** ISO-8601 time given to the entries (they have no time of their own). */
  nowIso: string;
  /** `text_language`: the query and the lines are analysed as the local store's entries are. */
  language: TextLanguage;
}

/**
 * Turns parsed lines into recall results. The score is the keyword relevance of the line
 * against the query, computed by the shared engine's `KeywordScorer` with term statistics of
 * the answer itself (documents = its lines), times {@link LIKE_MAX_RELEVANCE} (0.5): external
 * text is unverified evidence, worth at most a LIKE match. A line sharing no term with the
 * query scores 0.
 */
export function scoreExternalLines(
  lines: readonly ContextLine[],
  scoring: ExternalScoring,
): MemoryEntry[] {
  if (lines.length === 0) return [];
  const terms = searchTerms(analyzeQuery(scoring.query, scoring.language));
  const indexed = lines.map((line) => indexedTerms("", line.text, scoring.language));
  const tokens = indexed.map((text) => (text === "" ? [] : text.split(" ")));
  const totalLength = tokens.reduce((sum, list) => sum + list.length, 0);
  const scorer = new KeywordScorer(terms, {
    documents: lines.length,
    averageLength: totalLength / lines.length,
    documentFrequency: terms.map(
      (term) => tokens.filter((list) => list.some((token) => termMatches(token, term))).length,
    ),
  });
  return lines.map((line, index) => {
    const bm25 = scorer.bm25(indexed[index]!);
    const keywordRelevance = scorer.relevance(bm25);
    const score = LIKE_MAX_RELEVANCE * keywordRelevance;
    return {
      id: externalKey(line.text),
      key: externalKey(line.text),
      content: line.text,
      category: categoryOfTag(line.tag),
      namespace: scoring.namespace,
      createdAt: scoring.nowIso,
      updatedAt: scoring.nowIso,
      score,
      explain: {
        mode: scoring.mode,
        source: "external",
        keywordScore: bm25,
        keywordRelevance,
        fused: score,
        decay: 1,
      },
    } satisfies MemoryEntry;
  });
}

/**
 * True when an external result passes the recall's filters, by the contract's own rule (it has
 * no session, so a session filter excludes it, and it is dated "now").
 */
export function passesFilter(entry: MemoryEntry, options: RecallOptions): boolean {
  return entryMatchesFilter(entry, normalizeFilter({ ...options, namespace: entry.namespace }));
}

const signature = (entry: MemoryEntry): string =>
  `${entry.key.toLowerCase()}\u0000${entry.content.toLowerCase()}`;

/**
 * Local results keep their order (the engine's); external ones that repeat neither a result
 * already kept (lower-cased key + NUL + lower-cased content) nor the content of a local result
 * (a fact synced to the tool and coming back), and score at least `minScore` (and above 0), are
 * merged in by score: each goes before the first local result that scores less (local first
 * on ties). The list is cut to `limit`.
 */
export function mergeResults(
  local: readonly MemoryEntry[],
  external: readonly MemoryEntry[],
  limit: number,
  minScore: number,
): MemoryEntry[] {
  const seen = new Set(local.map(signature));
  const localContents = new Set(local.map((entry) => entry.content.toLowerCase()));
  const extra: MemoryEntry[] = [];
  for (const entry of external) {
    const score = entry.score ?? 0;
    if (!(score > 0) || score < minScore) continue;
    if (seen.has(signature(entry)) || localContents.has(entry.content.toLowerCase())) continue;
    seen.add(signature(entry));
    extra.push(entry);
  }
  extra.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  const merged: MemoryEntry[] = [];
  let next = 0;
  for (const entry of local) {
    while (next < extra.length && (extra[next]!.score ?? 0) > (entry.score ?? 0)) {
      merged.push(extra[next++]!);
    }
    merged.push(entry);
  }
  merged.push(...extra.slice(next));
  return merged.slice(0, limit);
}
