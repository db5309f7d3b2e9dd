import type { TextLanguage } from "@memory/api";
import { countIndexedTerms, indexedTerms } from "@memory/core";
import type Database from "better-sqlite3";

/** Rows re-analyzed per statement batch when the language changes. */
const BATCH = 2000;

/**
 * Makes the stored index terms follow `text_language`. `meta.text_language` records the
 * language the rows were indexed with (absent: `english`, every store before the setting). On a
 * change, every entry's `search_terms` and `term_count` are recomputed in one IMMEDIATE
 * transaction; the triggers keep FTS5 and the namespace statistics in step, so a reader sees
 * either the old index or the new one. All processes on one store must use the same language,
 * or each open re-indexes again.
 */
export function ensureTextLanguage(
  db: Database.Database,
  language: TextLanguage,
  log: (message: string) => void,
): void {
  const stored = () =>
    ((
      db.prepare("SELECT value FROM meta WHERE key = 'text_language'").get() as
        | { value: string }
        | undefined
    )?.value ?? "english") as TextLanguage;
  if (stored() === language) return;
  const rows = db
    .transaction(() => {
      if (stored() === language) return 0;
      const read = db.prepare(
        "SELECT doc_id, key, content FROM memories WHERE doc_id > ? ORDER BY doc_id LIMIT ?",
      );
      const write = db.prepare(
        "UPDATE memories SET search_terms = ?, term_count = ? WHERE doc_id = ? AND search_terms IS NOT ?",
      );
      let last = 0;
      let count = 0;
      for (;;) {
        const batch = read.all(last, BATCH) as { doc_id: number; key: string; content: string }[];
        if (batch.length === 0) break;
        for (const row of batch) {
          const terms = indexedTerms(row.key, row.content, language);
          write.run(terms, countIndexedTerms(terms), row.doc_id, terms);
        }
        count += batch.length;
        last = batch[batch.length - 1]!.doc_id;
      }
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('text_language', ?)").run(
        language,
      );
      return count;
    })
    .immediate();
  if (rows > 0)
    log(`@memory/sqlite: re-indexed ${rows} entries for text_language = "${language}".`);
}
