import {
  type FusedCandidate,
  finalizeRecall,
  fuseRrf,
  fuseWeighted,
  isMatchAllQuery,
  type KeywordHit,
  keywordOnly,
  keywordRelevance,
  type MemoryEntry,
  type NormalizedFilter,
  type RankableEntry,
  type RecallExplain,
  type SearchMode,
  type VectorHit,
  vectorOnly,
} from "@memory/api";
import type { EmbedderState } from "../embeddings/embedder-state.js";
import { filterSql } from "../filter-sql.js";
import { ENTRY_COLUMNS, type EntryRow, toEntry } from "../row-mapping.js";
import type { ResolvedSqliteOptions } from "../sqlite-options.js";
import type { StatementCache } from "../statement-cache.js";
import type { VectorStore } from "../vectors/vector-store.js";
import { keywordSearch, likeSearch } from "./keyword-stage.js";

export interface RecallRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  filter: NormalizedFilter;
  minScore: number | undefined;
  signal: AbortSignal | undefined;
}

export interface RecallDependencies {
  statements: StatementCache;
  options: ResolvedSqliteOptions;
  embedder: EmbedderState;
  vectors: () => VectorStore;
}

/** LIKE matches are weak evidence: at most 0.5, by the share of query keywords found. */
const LIKE_MAX_SCORE = 0.5;

function ranked(rows: Map<string, EntryRow>, candidates: FusedCandidate[]): RankableEntry[] {
  return candidates.flatMap((candidate) => {
    const row = rows.get(candidate.id);
    // Vector candidates carry their BLOB for rescoring; it is attached later only when asked for.
    return row ? [{ entry: toEntry({ ...row, embedding: null }), candidate }] : [];
  });
}

/**
 * DESIGN section 4 after the hot cache: keyword stage, early return, vector stage, merge, then
 * the shared finalization (decay, superseded, minScore, limit), with the LIKE fallback when
 * hybrid or vector recall finds nothing.
 */
export async function runRecall(
  request: RecallRequest,
  deps: RecallDependencies,
): Promise<MemoryEntry[]> {
  const { query, limit, mode, filter, minScore } = request;
  const { options, statements, embedder } = deps;
  if (limit <= 0) return [];
  const finalize = (
    items: RankableEntry[],
    source: RecallExplain["source"],
    extra: Partial<Parameters<typeof finalizeRecall>[1]> = {},
  ) =>
    finalizeRecall(items, {
      mode,
      source,
      limit,
      minScore,
      includeSuperseded: filter.includeSuperseded,
      halfLifeDays: options.halfLifeDays,
      ...extra,
    });
  const degraded = mode !== "bm25" && !embedder.usable ? embedder.reason : undefined;
  const base = degraded === undefined ? {} : { degraded };

  if (isMatchAllQuery(query)) {
    const { where, params } = filterSql(filter);
    const rows = statements
      .get(
        `SELECT ${ENTRY_COLUMNS} FROM memories m WHERE ${where} ORDER BY m.updated_at DESC, m.doc_id DESC LIMIT ?`,
      )
      .all(...params, limit) as EntryRow[];
    return finalize(
      rows.map((row) => ({ entry: toEntry(row), candidate: { id: row.id, fused: 1 } })),
      "recent",
      base,
    );
  }

  const pool = limit * options.candidateMultiplier;
  const rows = new Map<string, EntryRow>();
  const keyword: KeywordHit[] = [];
  if (mode !== "embedding" || !embedder.usable) {
    for (const { row, score } of keywordSearch(statements, query, pool, filter)) {
      rows.set(row.id, row);
      keyword.push({ id: row.id, score });
    }
  }

  let results: MemoryEntry[] = [];
  if (mode === "bm25" || !embedder.usable) {
    results = finalize(ranked(rows, keywordOnly(keyword)), "keyword", base);
    if (mode === "bm25" || results.length > 0) return results;
  } else {
    const best = keyword[0];
    if (mode === "hybrid" && best && keywordRelevance(best.score) >= options.ftsEarlyReturnScore) {
      results = finalize(ranked(rows, keywordOnly(keyword)), "keyword", { earlyReturn: true });
      if (results.length >= Math.min(limit, keyword.length)) return results;
    }
    const queryVector = await embedder.embedQuery(query, request.signal);
    const vector: VectorHit[] = [];
    for (const { row, cosine } of deps.vectors().search(queryVector, pool, filter)) {
      if (!rows.has(row.id)) rows.set(row.id, row);
      vector.push({ id: row.id, cosine });
    }
    if (mode === "embedding") {
      results = finalize(ranked(rows, vectorOnly(vector)), "vector");
    } else {
      const fused =
        options.mergeStrategy === "weighted"
          ? fuseWeighted(keyword, vector, {
              vector: options.vectorWeight,
              keyword: options.keywordWeight,
            })
          : fuseRrf(keyword, vector, options.rrfK);
      results = finalize(ranked(rows, fused), "hybrid", { strategy: options.mergeStrategy });
    }
    if (results.length > 0) return results;
  }

  // Nothing found by hybrid/vector (or by the keyword stage standing in for them): LIKE.
  const like = likeSearch(statements, query, pool, filter);
  return finalize(
    like.map(({ row, matched, keywords }) => ({
      entry: toEntry(row),
      candidate: { id: row.id, fused: (LIKE_MAX_SCORE * matched) / keywords },
    })),
    "like",
    base,
  );
}
