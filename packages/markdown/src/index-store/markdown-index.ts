import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type {
  BackfillOptions,
  EmbeddingJobReport,
  EmbeddingProvider,
  HealthReport,
  ImportEntry,
  MemoryEntry,
  RecallOptions,
  ReindexOptions,
  RetrievalSettings,
} from "@memory/api";
import { createSqliteMemory, type SqliteMemory } from "@memory/sqlite";
import Database from "better-sqlite3";
import { type MarkdownTree, sha256, type TreeRow } from "../markdown-tree.js";

export interface MarkdownIndexOptions {
  /** The index database (`<root>/.memory-state/index.db`). */
  file: string;
  settings: RetrievalSettings;
  embedder?: EmbeddingProvider;
  embeddingCacheMax: number;
  now: () => number;
  logger: (message: string) => void;
}

const identity = (namespace: string, key: string) => `${namespace}\u0000${key}`;

function rowHash(entry: MemoryEntry): string {
  return sha256(
    JSON.stringify([
      entry.id,
      entry.key,
      entry.content,
      entry.category,
      entry.namespace,
      entry.createdAt,
      entry.updatedAt,
      entry.sessionId ?? null,
      entry.importance ?? null,
      entry.supersededBy ?? null,
    ]),
  );
}

function importable(entry: MemoryEntry, embedding?: number[]): ImportEntry {
  const out: ImportEntry = {
    id: entry.id,
    key: entry.key,
    content: entry.content,
    category: entry.category,
    namespace: entry.namespace,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
  if (entry.sessionId !== undefined) out.sessionId = entry.sessionId;
  if (entry.importance !== undefined) out.importance = entry.importance;
  if (entry.supersededBy !== undefined) out.supersededBy = entry.supersededBy;
  if (embedding) out.embedding = embedding;
  return out;
}

/**
 * The derived index of a Markdown tree: a `@memory/sqlite` store (FTS5, vectors, the embedding
 * cache and the provider fingerprint) holding the parsed entries and free-text chunks with the
 * same ids and keys, plus a `markdown_files` table (path, content hash, the rows each file gave)
 * for incremental re-indexing. Everything in it is rebuilt from the files; deleting the file
 * loses nothing but the embeddings' compute time.
 */
export class MarkdownIndex {
  readonly #db: Database.Database;
  readonly #memory: SqliteMemory;

  constructor(options: MarkdownIndexOptions) {
    mkdirSync(dirname(options.file), { recursive: true });
    this.#db = new Database(options.file);
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("busy_timeout = 5000");
    this.#db.exec(
      "CREATE TABLE IF NOT EXISTS markdown_files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, rows TEXT NOT NULL)",
    );
    this.#memory = createSqliteMemory({
      database: this.#db,
      ...options.settings,
      ...(options.embedder ? { embedder: options.embedder } : {}),
      embeddingCacheMax: options.embeddingCacheMax,
      now: options.now,
      logger: options.logger,
    });
  }

  /** Recorded hash of every indexed file (rows are read only for the files that changed). */
  #hashes(): Map<string, string> {
    const hashes = new Map<string, string>();
    for (const row of this.#db.prepare("SELECT path, hash FROM markdown_files").all() as {
      path: string;
      hash: string;
    }[])
      hashes.set(row.path, row.hash);
    return hashes;
  }

  #rows(path: string): Record<string, string> {
    const row = this.#db.prepare("SELECT rows FROM markdown_files WHERE path = ?").get(path) as
      | { rows: string }
      | undefined;
    return row ? (JSON.parse(row.rows) as Record<string, string>) : {};
  }

  /** Files whose content the index does not hold as it is now (doctor: index freshness). */
  staleFiles(tree: MarkdownTree): string[] {
    const hashes = this.#hashes();
    const stale: string[] = [];
    for (const [path, file] of tree.files) if (hashes.get(path) !== file.hash) stale.push(path);
    for (const path of hashes.keys()) if (!tree.files.has(path)) stale.push(path);
    return stale.sort();
  }

  /**
   * Brings the index up to the tree: for each file whose hash differs from the recorded one,
   * the rows it gives now are upserted (only those whose content or metadata changed) and the
   * rows it gave before and gives no more are deleted. Call with the tree lock held.
   */
  async sync(tree: MarkdownTree, embeddings?: Map<string, number[]>): Promise<void> {
    const hashes = this.#hashes();
    const winners = new Map<string, TreeRow[]>();
    const add = (row: TreeRow) => {
      const list = winners.get(row.source.path);
      if (list) list.push(row);
      else winners.set(row.source.path, [row]);
    };
    for (const row of tree.allEntries()) add(row);
    for (const row of tree.allChunks()) add(row);
    const upserts: ImportEntry[] = [];
    const gone = new Set<string>();
    const present = new Set<string>();
    const updates: { path: string; hash: string; size: number; mtime: number; rows: string }[] = [];
    for (const [path, file] of tree.files) {
      const rows = winners.get(path) ?? [];
      for (const row of rows) present.add(identity(row.entry.namespace, row.entry.key));
      const recorded = hashes.get(path);
      const forced =
        embeddings &&
        rows.some((row) => embeddings.has(identity(row.entry.namespace, row.entry.key)));
      if (recorded === file.hash && !forced) continue;
      const previous = recorded === undefined ? {} : this.#rows(path);
      const next: Record<string, string> = {};
      for (const row of rows) {
        const id = identity(row.entry.namespace, row.entry.key);
        const hash = rowHash(row.entry);
        next[id] = hash;
        const given = embeddings?.get(id);
        if (previous[id] !== hash || given) upserts.push(importable(row.entry, given));
      }
      for (const id of Object.keys(previous)) if (!(id in next)) gone.add(id);
      updates.push({
        path,
        hash: file.hash,
        size: file.size,
        mtime: file.mtimeMs,
        rows: JSON.stringify(next),
      });
    }
    const removedFiles: string[] = [];
    for (const path of hashes.keys()) {
      if (tree.files.has(path)) continue;
      removedFiles.push(path);
      for (const id of Object.keys(this.#rows(path))) gone.add(id);
    }
    // Deletions first: a key that moved file, or an id now used by another key, is re-added below.
    for (const id of gone) {
      if (present.has(id)) continue;
      const [namespace, key] = id.split("\u0000") as [string, string];
      await this.#memory.forget(key, { namespace });
    }
    if (upserts.length > 0) {
      const report = await this.#memory.importEntries(upserts);
      // An id the index holds under another key (a line copied by hand): index it without the id.
      const retry = report.rejected
        .filter((rejection) => rejection.code !== "INVALID_INPUT")
        .map((rejection) => {
          const { id: _id, ...rest } = upserts[rejection.index] as ImportEntry;
          return rest;
        });
      if (retry.length > 0) await this.#memory.importEntries(retry);
    }
    const upsert = this.#db.prepare(
      "INSERT INTO markdown_files (path, hash, size, mtime_ms, rows) VALUES (?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, size = excluded.size, mtime_ms = excluded.mtime_ms, rows = excluded.rows",
    );
    const remove = this.#db.prepare("DELETE FROM markdown_files WHERE path = ?");
    this.#db.transaction(() => {
      for (const update of updates)
        upsert.run(update.path, update.hash, update.size, update.mtime, update.rows);
      for (const path of removedFiles) remove.run(path);
    })();
  }

  /** Forgets everything indexed (the embedding cache stays) and indexes the tree again. */
  async rebuild(tree: MarkdownTree): Promise<void> {
    await this.#memory.deleteEntries({ allNamespaces: true });
    this.#db.exec("DELETE FROM markdown_files");
    await this.sync(tree);
  }

  recall(query: string, options: RecallOptions): Promise<MemoryEntry[]> {
    return this.#memory.recall(query, options);
  }

  async attachEmbeddings(entries: MemoryEntry[]): Promise<MemoryEntry[]> {
    const out: MemoryEntry[] = [];
    for (const entry of entries) {
      const indexed = await this.#memory.get(entry.key, {
        namespace: entry.namespace,
        withEmbedding: true,
      });
      out.push(indexed?.embedding ? { ...entry, embedding: indexed.embedding } : entry);
    }
    return out;
  }

  health(): Promise<HealthReport> {
    return this.#memory.healthCheck();
  }

  reindex(options: ReindexOptions): Promise<EmbeddingJobReport> {
    return this.#memory.reindex(options);
  }

  backfill(options: BackfillOptions): Promise<EmbeddingJobReport> {
    return this.#memory.backfillEmbeddings(options);
  }

  flush(): Promise<void> {
    return this.#memory.flush();
  }

  async close(): Promise<void> {
    await this.#memory.close();
    this.#db.close();
  }
}

export function openMarkdownIndex(options: MarkdownIndexOptions): MarkdownIndex {
  return new MarkdownIndex(options);
}
