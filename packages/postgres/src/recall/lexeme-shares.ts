import type { Database } from "../database.js";
import type { Tables } from "../filter-sql.js";

/** How long the lexeme shares are kept: they change only when the table is analyzed again. */
export const LEXEME_SHARES_TTL_MS = 60_000;

/** What ANALYZE measured of `memories.search`. */
export interface SearchStatistics {
  /** Rows of the table when it was last analyzed (`pg_class.reltuples`); 0 when unknown. */
  rows: number;
  /** Per lexeme ANALYZE kept, the share of sampled rows holding it. Empty without statistics. */
  shares: Map<string, number>;
}

/**
 * The lexemes ANALYZE found most common in `memories.search` (up to 10 x the statistics target:
 * 1,000 by default), each with the share of sampled rows holding it, kept for
 * {@link LEXEME_SHARES_TTL_MS}: read through `pg_stats` they cost 1-17 ms (the view checks the
 * column's privileges and the array is cast from text), more than a count they replace.
 */
export class LexemeShares {
  readonly #now: () => number;
  #loaded: { at: number; statistics: Promise<SearchStatistics> } | undefined;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  get(db: Database, tables: Tables): Promise<SearchStatistics> {
    const loaded = this.#loaded;
    if (loaded && this.#now() - loaded.at < LEXEME_SHARES_TTL_MS) return loaded.statistics;
    const statistics = readSearchStatistics(db, tables);
    const entry = { at: this.#now(), statistics };
    this.#loaded = entry;
    // A failed read is not kept: the next recall reads again.
    statistics.catch(() => {
      if (this.#loaded === entry) this.#loaded = undefined;
    });
    return statistics;
  }

  clear(): void {
    this.#loaded = undefined;
  }
}

async function readSearchStatistics(db: Database, tables: Tables): Promise<SearchStatistics> {
  // Through pg_stats (readable by whoever may read the column), found by the table's OID so the
  // quoted schema name needs no unquoting; the frequencies array ends with three summary values
  // that unnest pairs with no lexeme.
  const result = await db.query<{ rows: number; lexeme: string | null; share: number }>(
    "recall",
    `SELECT greatest(c.reltuples, 0)::float8 AS rows, e.lexeme, e.share::float8 AS share
     FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
     JOIN pg_stats p ON p.schemaname = ns.nspname AND p.tablename = c.relname AND p.attname = 'search'
     CROSS JOIN LATERAL unnest(p.most_common_elems::text::text[], p.most_common_elem_freqs)
       AS e(lexeme, share)
     WHERE c.oid = to_regclass($1) AND e.lexeme IS NOT NULL`,
    [tables.memories],
  );
  return {
    rows: result.rows[0]?.rows ?? 0,
    shares: new Map(result.rows.map((row) => [row.lexeme!, row.share])),
  };
}
