import type pg from "pg";
import { entryTerms, MAX_LEXEME_BYTES } from "../search-terms.js";
import type { Migration } from "./migration.js";

// Rows read, analyzed and written back per statement while filling the new columns.
const FILL_BATCH = 1000;

/**
 * Schema 2: the full-text index holds exactly the shared analyzer's terms (`@memory/api`
 * `indexedTerms`: folded, stemmed, CJK bigrams), as SQLite does, and BM25 gets per-namespace
 * statistics.
 *
 * - `search_terms` / `term_count`: written by the library (the analyzer is JavaScript).
 * - `search` becomes a generated column, `memory_lexemes(search_terms)`: the set of an entry's
 *   lexemes is exactly the set of its terms. It is built with `array_to_tsvector`, not
 *   `to_tsvector`, whose parser splits and drops words by the database's locale. Writers can
 *   no longer set it (an older replica that tries fails loudly instead of indexing other terms).
 * - `namespace_stats`: entries and total terms per namespace, kept by statement-level triggers
 *   (one aggregated upsert per statement, rows locked in namespace order), so every write path,
 *   bulk import included, keeps them exact.
 *
 * Existing rows get their terms in JavaScript, in batches, inside the migration's transaction
 * (ALTER TABLE holds the table's lock until it commits); no row is deleted or rewritten
 * otherwise.
 */
export const searchTerms: Migration = {
  version: 2,
  name: "search terms and namespace statistics",
  up: (s) => `
    ALTER TABLE ${s}.memories
      ADD COLUMN search_terms text NOT NULL DEFAULT '',
      ADD COLUMN term_count integer NOT NULL DEFAULT 0;
  `,
  run: async (client, s) => {
    await fillTerms(client, s);
    await client.query(rebuild(s));
  },
};

/** Computes `search_terms` and `term_count` of every row, keyset-paged by id. */
async function fillTerms(client: pg.PoolClient, s: string): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const page: pg.QueryResult<{ id: string; key: string; content: string }> = await client.query(
      `SELECT id, key, content FROM ${s}.memories
       WHERE $1::text IS NULL OR id > $1 ORDER BY id LIMIT ${FILL_BATCH}`,
      [after],
    );
    if (page.rows.length === 0) return;
    const ids: string[] = [];
    const terms: string[] = [];
    const counts: number[] = [];
    for (const row of page.rows) {
      const entry = entryTerms(row.key, row.content);
      ids.push(row.id);
      terms.push(entry.terms);
      counts.push(entry.count);
    }
    await client.query(
      `UPDATE ${s}.memories m SET search_terms = v.terms, term_count = v.n
       FROM unnest($1::text[], $2::text[], $3::int[]) AS v(id, terms, n) WHERE m.id = v.id`,
      [ids, terms, counts],
    );
    after = page.rows[page.rows.length - 1]!.id;
  }
}

/** The generated tsvector, its GIN index, and the namespace statistics with their triggers. */
function rebuild(s: string): string {
  const upsert = (select: string) => `
    INSERT INTO ${s}.namespace_stats AS st (namespace, documents, terms)
    ${select}
    ON CONFLICT (namespace) DO UPDATE
      SET documents = st.documents + excluded.documents, terms = st.terms + excluded.terms;`;
  return `
    -- Only pg_catalog objects, schema-qualified, so a caller's search_path cannot change them.
    CREATE FUNCTION ${s}.memory_lexemes(terms text) RETURNS tsvector
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        SELECT pg_catalog.array_to_tsvector(ARRAY(
          SELECT t FROM pg_catalog.unnest(pg_catalog.string_to_array(terms, ' ')) AS t
          WHERE t OPERATOR(pg_catalog.<>) ''
            AND pg_catalog.octet_length(t) OPERATOR(pg_catalog.<=) ${MAX_LEXEME_BYTES}))
      $fn$;
    ALTER TABLE ${s}.memories DROP COLUMN search;
    ALTER TABLE ${s}.memories
      ADD COLUMN search tsvector GENERATED ALWAYS AS (${s}.memory_lexemes(search_terms)) STORED;
    CREATE INDEX memories_search ON ${s}.memories USING gin (search);

    CREATE TABLE ${s}.namespace_stats (
      namespace text PRIMARY KEY,
      documents bigint NOT NULL,
      terms bigint NOT NULL
    );
    INSERT INTO ${s}.namespace_stats (namespace, documents, terms)
      SELECT namespace, count(*), sum(term_count) FROM ${s}.memories GROUP BY namespace;

    CREATE FUNCTION ${s}.memory_namespace_stats() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${upsert("SELECT namespace, count(*), sum(term_count) FROM new_rows GROUP BY namespace ORDER BY namespace")}
      ELSIF TG_OP = 'DELETE' THEN
        ${upsert("SELECT namespace, -count(*), -sum(term_count) FROM old_rows GROUP BY namespace ORDER BY namespace")}
      ELSE
        ${upsert(`SELECT namespace, sum(d), sum(t) FROM (
            SELECT namespace, 1 AS d, term_count AS t FROM new_rows
            UNION ALL SELECT namespace, -1, -term_count FROM old_rows
          ) AS delta GROUP BY namespace HAVING sum(d) <> 0 OR sum(t) <> 0 ORDER BY namespace`)}
      END IF;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER memories_stats_insert AFTER INSERT ON ${s}.memories
      REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.memory_namespace_stats();
    CREATE TRIGGER memories_stats_update AFTER UPDATE ON ${s}.memories
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.memory_namespace_stats();
    CREATE TRIGGER memories_stats_delete AFTER DELETE ON ${s}.memories
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.memory_namespace_stats();
  `;
}
