import { normalizeTimestamp } from "@memory/api";
import { cjkIndexText } from "@memory/core";
import type Database from "better-sqlite3";
import { contentHash } from "../hashing.js";
import { SCHEMA_V1 } from "./schema.js";

function columns(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare("SELECT name FROM pragma_table_info(?)").all(table) as { name: string }[];
  return new Set(rows.map((row) => row.name));
}

function tableExists(db: Database.Database, name: string): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  );
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** True when `memories` exists with the seed's layout (no namespace column). */
export function isSeedSchema(db: Database.Database): boolean {
  return tableExists(db, "memories") && !columns(db, "memories").has("namespace");
}

function timestamp(value: unknown, fallback: string): string {
  try {
    return normalizeTimestamp(value);
  } catch {
    return fallback;
  }
}

/**
 * Upgrades the seed's schema in place (inside the caller's transaction): every row is copied
 * into the new `memories` table in the default namespace, every embedding BLOB into
 * `memory_vectors`, every embedding-cache row into the new cache under the fingerprint
 * `legacy` (the seed did not record its model). Only derived data (the FTS index, triggers)
 * is rebuilt.
 */
export function upgradeSeedSchema(db: Database.Database, log: (message: string) => void): void {
  const triggers = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('memories', 'embedding_cache')",
    )
    .all() as { name: string }[];
  for (const { name } of triggers) db.exec(`DROP TRIGGER IF EXISTS ${quoteIdentifier(name)}`);
  db.exec("DROP TABLE IF EXISTS memories_fts");
  db.exec("ALTER TABLE memories RENAME TO memories_seed");
  const seedCache = tableExists(db, "embedding_cache");
  if (seedCache) db.exec("ALTER TABLE embedding_cache RENAME TO embedding_cache_seed");
  const seedColumns = columns(db, "memories_seed");
  db.exec(SCHEMA_V1);

  const now = new Date().toISOString();
  const insert = db.prepare(
    `INSERT INTO memories (id, namespace, key, content, category, session_id, content_hash, cjk_text, created_at, updated_at)
     VALUES (?, 'default', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertVector = db.prepare(
    "INSERT INTO memory_vectors (doc_id, seq, content_hash, embedding) VALUES (?, ?, ?, ?)",
  );
  const select = db.prepare(
    `SELECT id, key, content, category, ${seedColumns.has("embedding") ? "embedding" : "NULL AS embedding"},
            created_at, updated_at, ${seedColumns.has("session_id") ? "session_id" : "NULL AS session_id"}
     FROM memories_seed ORDER BY rowid`,
  );
  let dims: number | undefined;
  let seq = 0;
  let skipped = 0;
  for (const row of select.all() as Record<string, unknown>[]) {
    const content = String(row.content);
    const hash = contentHash(content);
    const updatedAt = timestamp(row.updated_at, now);
    const { lastInsertRowid } = insert.run(
      String(row.id ?? crypto.randomUUID()),
      String(row.key),
      content,
      String(row.category ?? "core"),
      row.session_id ?? null,
      hash,
      cjkIndexText(content),
      timestamp(row.created_at, updatedAt),
      updatedAt,
    );
    const blob = row.embedding;
    if (blob instanceof Uint8Array && blob.byteLength > 0 && blob.byteLength % 4 === 0) {
      const length = blob.byteLength / 4;
      dims ??= length;
      if (length === dims) insertVector.run(lastInsertRowid, ++seq, hash, blob);
      else skipped++;
    }
  }
  if (skipped > 0)
    log(
      `@memory/sqlite: ${skipped} seed embeddings had a different length than ${dims} and were left for reindex.`,
    );
  if (dims !== undefined) {
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('embedding_dims', ?)").run(
      String(dims),
    );
  }
  if (seedCache) {
    db.exec(`INSERT OR IGNORE INTO embedding_cache (content_hash, fingerprint, embedding, created_at, accessed_at, access_seq)
      SELECT content_hash, 'legacy', embedding, created_at, accessed_at, row_number() OVER (ORDER BY accessed_at, rowid)
      FROM embedding_cache_seed`);
    db.exec("DROP TABLE embedding_cache_seed");
  }
  db.exec("DROP TABLE memories_seed");
}
