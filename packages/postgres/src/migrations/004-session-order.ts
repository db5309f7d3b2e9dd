import type { Migration } from "./migration.js";

/**
 * Schema 4: session order. Recall's conversational context asks for the entries just before
 * and after a candidate in its session (same namespace and session, by creation time, then
 * write order); this index answers each with one index seek. Only an index is added.
 */
export const sessionOrder: Migration = {
  version: 4,
  name: "session order index",
  up: (s) => `
    CREATE INDEX memories_session_order ON ${s}.memories (namespace, session_id, created_at, created_seq)
      WHERE session_id IS NOT NULL;
  `,
};
