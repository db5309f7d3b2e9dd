// What the LoCoMo-based keyword benchmarks share (small-store.mjs, recall-js-cost.mjs,
// recall-instructions.mjs): a turn of the kit's export as an entry to import, and the bare FTS5
// query a hand-written app would run over the same rows.

/** A `corpus.jsonl` line as an entry of `namespace`: its session, dated when it was said. */
export const turnEntry = (line, namespace) => ({
  key: line.key,
  content: line.content,
  namespace,
  sessionId: line.session_id,
  category: "core",
  createdAt: `${line.timestamp_iso}.000Z`,
  updatedAt: `${line.timestamp_iso}.000Z`,
});

/**
 * The same analyzed terms (a MATCH of quoted terms joined by OR), the same namespace, the entry
 * rows of the top 10 (what recall returns). Parameters: the MATCH text, the namespace.
 */
export const BARE_QUERY = `SELECT m.doc_id, m.id, m.namespace, m.key, m.content, m.category,
    m.session_id, m.importance, m.superseded_by, m.created_at, m.updated_at
  FROM memories_fts JOIN memories m ON m.doc_id = memories_fts.rowid
  WHERE memories_fts MATCH ? AND m.namespace = ? AND m.superseded_by IS NULL
  ORDER BY rank LIMIT 10`;
