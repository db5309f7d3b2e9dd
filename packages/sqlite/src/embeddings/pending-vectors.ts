import type { DriverVectors, PendingEntry } from "@memory/api";
import type { Opened } from "../opened-store.js";

const PENDING_AFTER = `SELECT m.doc_id, m.id, m.namespace, m.content_hash, m.content FROM memories m WHERE m.doc_id > ? AND NOT EXISTS
     (SELECT 1 FROM memory_vectors v WHERE v.doc_id = m.doc_id AND v.content_hash = m.content_hash) ORDER BY m.doc_id LIMIT ?`;

/** Entries whose current content has no vector. */
export function pendingCount(opened: Opened): number {
  return (
    opened.statements
      .get(
        `SELECT count(*) AS n FROM memories m WHERE NOT EXISTS
         (SELECT 1 FROM memory_vectors v WHERE v.doc_id = m.doc_id AND v.content_hash = m.content_hash)`,
      )
      .get() as { n: number }
  ).n;
}

/**
 * The database is the queue: an entry whose content hash has no vector is pending, scanned by
 * doc id; a vector is written only where the content hash still matches (the guard against an
 * entry stored again while it was being embedded). Whether vectors may be written at all (the
 * provider's vector space) is the facade's rule, checked before it reads or saves any.
 */
export function sqliteVectors(
  run: <T>(body: (opened: Opened) => T, transaction?: boolean) => Promise<T>,
): DriverVectors {
  return {
    pending: (after, limit) =>
      run((opened) => {
        const rows = opened.statements
          .get(PENDING_AFTER)
          .all(typeof after === "number" ? after : 0, limit) as {
          doc_id: number;
          id: string;
          namespace: string;
          content_hash: string;
          content: string;
        }[];
        const entries: PendingEntry[] = rows.map((row) => ({
          id: row.id,
          namespace: row.namespace,
          content: row.content,
          contentHash: row.content_hash,
        }));
        return { entries, next: rows.at(-1)?.doc_id ?? after };
      }),
    countPending: () => run(pendingCount),
    save: (vectors) =>
      run((opened) => {
        const find = opened.statements.get(
          "SELECT doc_id FROM memories WHERE id = ? AND content_hash = ?",
        );
        let written = 0;
        for (const { entry, vector } of vectors) {
          const row = find.get(entry.id, entry.contentHash) as { doc_id: number } | undefined;
          if (row && opened.vectors.write(row.doc_id, entry.namespace, entry.contentHash, vector))
            written++;
        }
        return written;
      }, true),
    fingerprint: () => run((opened) => opened.space.fingerprint),
    // The facade resets only with its provider, the one this store was opened with.
    reset: () =>
      run((opened) => {
        opened.vectors.clear();
        if (opened.provider) opened.space.record(opened.provider);
      }, true).then(() => run((opened) => opened.vectors.reset(opened.provider?.dimensions ?? 0))),
  };
}
