import type Database from "better-sqlite3";
import { contentHash } from "../hashing.js";
import { fromBlob, toBlob } from "../vectors/vector-codec.js";

/**
 * The SQL embedding cache: key = SHA-256 of the text (16 hex) + provider fingerprint, so it
 * survives restarts and never serves a vector from another model. Least-recently-used rows are
 * evicted in SQL once there are more than `maxEntries`; `access_seq` (not the ms timestamp)
 * orders them, so two touches in the same millisecond still have an order.
 */
export class EmbeddingCache {
  readonly #db: Database.Database;
  readonly #maxEntries: number;
  readonly #select: Database.Statement;
  readonly #touch: Database.Statement;
  readonly #insert: Database.Statement;
  readonly #evict: Database.Statement;

  constructor(db: Database.Database, maxEntries: number) {
    this.#db = db;
    this.#maxEntries = maxEntries;
    this.#select = db.prepare(
      "SELECT embedding FROM embedding_cache WHERE content_hash = ? AND fingerprint = ?",
    );
    const nextSeq = "(SELECT coalesce(max(access_seq), 0) + 1 FROM embedding_cache)";
    this.#touch = db.prepare(
      `UPDATE embedding_cache SET accessed_at = ?, access_seq = ${nextSeq} WHERE content_hash = ? AND fingerprint = ?`,
    );
    this.#insert = db.prepare(
      `INSERT OR REPLACE INTO embedding_cache (content_hash, fingerprint, embedding, created_at, accessed_at, access_seq)
       VALUES (?, ?, ?, ?, ?, ${nextSeq})`,
    );
    this.#evict = db.prepare(
      `DELETE FROM embedding_cache WHERE (content_hash, fingerprint) IN (
         SELECT content_hash, fingerprint FROM embedding_cache ORDER BY access_seq
         LIMIT max(0, (SELECT count(*) FROM embedding_cache) - ?))`,
    );
  }

  get enabled(): boolean {
    return this.#maxEntries > 0;
  }

  /** Cached vectors for `texts` (undefined where missing); hits are marked recently used. */
  lookup(texts: readonly string[], fingerprint: string): (Float32Array | undefined)[] {
    if (!this.enabled) return texts.map(() => undefined);
    const now = new Date().toISOString();
    return this.#db.transaction(() =>
      texts.map((text) => {
        const hash = contentHash(text);
        const row = this.#select.get(hash, fingerprint) as { embedding: Buffer } | undefined;
        if (!row) return undefined;
        this.#touch.run(now, hash, fingerprint);
        return fromBlob(row.embedding);
      }),
    )();
  }

  /** Stores fresh vectors, then evicts down to the bound. */
  save(entries: readonly { text: string; vector: ArrayLike<number> }[], fingerprint: string): void {
    if (!this.enabled || entries.length === 0) return;
    const now = new Date().toISOString();
    this.#db
      .transaction(() => {
        for (const { text, vector } of entries)
          this.#insert.run(contentHash(text), fingerprint, toBlob(vector), now, now);
        this.#evict.run(this.#maxEntries);
      })
      .immediate();
  }
}
