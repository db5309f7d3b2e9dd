import type { Migration } from "./migration.js";

/**
 * Schema 8: relations (docs/relations.md). One row per edge, identified by
 * `(namespace, from_key, to_key, type)`. Both ends reference the entry's identity
 * `(namespace, key)` with ON DELETE CASCADE, so deleting an entry on any path (forget, purge,
 * hygiene) removes its edges in the same statement. `metadata` is JSON text (not jsonb: read back
 * exactly as written, like the decision records).
 */
export const relations: Migration = {
  version: 8,
  name: "relations",
  up: (s) => `
    CREATE TABLE IF NOT EXISTS ${s}.memory_relations (
      namespace text NOT NULL,
      from_key text NOT NULL,
      to_key text NOT NULL,
      type text NOT NULL,
      weight double precision NOT NULL CHECK (weight >= 0 AND weight <= 1),
      metadata text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (namespace, from_key, to_key, type),
      FOREIGN KEY (namespace, from_key) REFERENCES ${s}.memories (namespace, key) ON DELETE CASCADE,
      FOREIGN KEY (namespace, to_key) REFERENCES ${s}.memories (namespace, key) ON DELETE CASCADE
    );
    CREATE INDEX IF NOT EXISTS memory_relations_to ON ${s}.memory_relations (namespace, to_key);
  `,
};
