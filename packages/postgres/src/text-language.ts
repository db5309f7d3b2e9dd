import type { TextLanguage } from "@memory/api";
import type pg from "pg";
import { lockSchema } from "./migrations/index.js";
import { entryTerms } from "./search-terms.js";

/** Rows re-analyzed per statement when the language changes. */
const BATCH = 2000;

/**
 * Makes the stored index terms follow `text_language`. `memory_meta.text_language` records the
 * language the rows were indexed with (absent: `english`, every schema before the setting). On a
 * change, every entry's `search_terms` and `term_count` are recomputed in one transaction under
 * the schema's advisory lock (the generated tsvector and the statistics triggers follow), so
 * replicas starting together re-index once and readers see the old index or the new one. An up
 * to date schema is only read (read-only sessions can open it). All replicas of one schema must
 * use the same language, or each start re-indexes again.
 */
export async function ensureTextLanguage(
  client: pg.PoolClient,
  schema: string,
  quoted: string,
  language: TextLanguage,
  log: (message: string) => void,
): Promise<void> {
  const stored = async () =>
    ((
      await client.query<{ value: string }>(
        `SELECT value FROM ${quoted}.memory_meta WHERE key = 'text_language'`,
      )
    ).rows[0]?.value ?? "english") as TextLanguage;
  if ((await stored()) === language) return;
  await client.query("BEGIN");
  try {
    await lockSchema(client, schema);
    let count = 0;
    if ((await stored()) !== language) {
      let after = "";
      for (;;) {
        const rows = await client.query<{ id: string; key: string; content: string }>(
          `SELECT id, key, content FROM ${quoted}.memories WHERE id > $1 ORDER BY id LIMIT $2`,
          [after, BATCH],
        );
        if (rows.rows.length === 0) break;
        const terms = rows.rows.map((row) => entryTerms(row.key, row.content, language));
        await client.query(
          `UPDATE ${quoted}.memories m SET search_terms = v.terms, term_count = v.count
           FROM unnest($1::text[], $2::text[], $3::int[]) AS v(id, terms, count)
           WHERE m.id = v.id AND m.search_terms IS DISTINCT FROM v.terms`,
          [
            rows.rows.map((row) => row.id),
            terms.map((entry) => entry.terms),
            terms.map((entry) => entry.count),
          ],
        );
        count += rows.rows.length;
        after = rows.rows[rows.rows.length - 1]!.id;
      }
      await client.query(
        `INSERT INTO ${quoted}.memory_meta (key, value) VALUES ('text_language', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [language],
      );
    }
    await client.query("COMMIT");
    if (count > 0)
      log(`@memory/postgres: re-indexed ${count} entries for text_language = "${language}".`);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
