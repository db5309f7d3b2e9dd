import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type {
  DriverContext,
  EntryKey,
  EntryUpsert,
  IndexDriverFactory,
  MemoryDriver,
  MemoryEntry,
} from "@memory/api";
import Database from "better-sqlite3";
import { type MarkdownTree, sha256, type TreeFile, type TreeRow } from "../markdown-tree.js";
import type { WrittenVectors } from "../tree-state.js";

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
      entry.supersessionRecord ?? null,
      entry.conflictRecord ?? null,
    ]),
  );
}

/**
 * The row as the index stores it: the file's fields, its id and times winning, and no marks.
 * Pins and snoozes stay out of the index: recall applies snoozes from the files' rows
 * (markdown-stages.ts), and an index driver that keeps a stored mark when an upsert leaves it
 * undefined (the contract's rule) would otherwise keep a snooze the files no longer have, and
 * its `awakeAt` filter would hide an awake entry.
 */
function upsertOf(entry: MemoryEntry, vector?: ArrayLike<number>): EntryUpsert {
  const {
    source: _source,
    score: _score,
    explain: _explain,
    pinned: _pinned,
    snoozedUntil: _snoozedUntil,
    ...record
  } = entry;
  return { entry: record, replaceId: true, replaceCreatedAt: true, ...(vector ? { vector } : {}) };
}

/** What the index records of a file: its stamp and hash, and its rows' hashes. */
interface FileUpdate {
  file: TreeFile;
  rows: Record<string, string>;
  /** The rows are all of the file's (the recorded ones are replaced), not only added ones. */
  replace: boolean;
}

/**
 * The files that changed since the index took them, when every one of them only grew by appends
 * it can take alone (`TreeFile.appendedFrom` starts at the recorded hash), no file vanished, and
 * every vector written is an appended row's; undefined otherwise (the files are compared whole).
 */
function appendedFiles(
  tree: MarkdownTree,
  hashes: Map<string, string>,
  vectors: Map<string, ArrayLike<number>> | undefined,
): { file: TreeFile; rows: TreeRow[] }[] | undefined {
  const changed: { file: TreeFile; rows: TreeRow[] }[] = [];
  const appendedIds = new Set<string>();
  for (const file of tree.files.values()) {
    const recorded = hashes.get(file.path);
    if (recorded === file.hash) continue;
    const appended = file.appendedFrom;
    if (recorded === undefined || !appended) return undefined;
    // The rows after the version the index holds: all of them, or those after a step.
    const from =
      appended.hash === recorded ? 0 : appended.steps.find((step) => step.hash === recorded)?.rows;
    if (from === undefined) return undefined;
    const rows = appended.rows.slice(from);
    changed.push({ file, rows });
    if (vectors)
      for (const row of rows) appendedIds.add(identity(row.entry.namespace, row.entry.key));
  }
  if (hashes.size > tree.files.size) return undefined;
  for (const path of hashes.keys()) if (!tree.files.has(path)) return undefined;
  if (vectors) for (const id of vectors.keys()) if (!appendedIds.has(id)) return undefined;
  return changed;
}

/**
 * The derived index of a Markdown tree: an injected driver (SQLite's: FTS5, vectors, the
 * embedding cache and the provider fingerprint) over `index.db`, holding the parsed entries and
 * free-text chunks with the same ids and keys, plus a `markdown_files` table (path, content
 * hash, the rows each file gave) for incremental re-indexing. Everything in it is rebuilt from
 * the files; deleting the file loses nothing but the embeddings' compute time.
 */
export class MarkdownIndex {
  readonly file: string;
  /** The index's driver: its recall stages, vectors and embedding cache serve the tree. */
  readonly driver: MemoryDriver;
  readonly #db: Database.Database;
  /** The index was made by a version that kept each file's rows as one JSON: rebuild it once. */
  #rebuild: boolean;

  private constructor(file: string, driver: MemoryDriver, db: Database.Database, rebuild: boolean) {
    this.file = file;
    this.driver = driver;
    this.#db = db;
    this.#rebuild = rebuild;
  }

  static async open(
    file: string,
    openDriver: IndexDriverFactory,
    context: DriverContext,
  ): Promise<MarkdownIndex> {
    mkdirSync(dirname(file), { recursive: true });
    const driver = await openDriver(file);
    await driver.open(context);
    const db = new Database(file);
    let rebuild = false;
    try {
      db.pragma("busy_timeout = 5000");
      // One row per (file, row) rather than one JSON per file: an append records its own rows
      // without reading or writing the rest of the file's (a day's log may hold 100,000).
      const columns = db.pragma("table_info(markdown_files)") as { name: string }[];
      if (columns.some((column) => column.name === "rows")) {
        db.exec("DROP TABLE markdown_files");
        rebuild = true;
      }
      db.exec(
        "CREATE TABLE IF NOT EXISTS markdown_files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL)",
      );
      db.exec(
        "CREATE TABLE IF NOT EXISTS markdown_rows (path TEXT NOT NULL, id TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (path, id)) WITHOUT ROWID",
      );
    } catch (error) {
      db.close();
      await driver.close();
      throw error;
    }
    return new MarkdownIndex(file, driver, db, rebuild);
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
    const rows: Record<string, string> = {};
    for (const row of this.#db
      .prepare("SELECT id, hash FROM markdown_rows WHERE path = ?")
      .all(path) as { id: string; hash: string }[])
      rows[row.id] = row.hash;
    return rows;
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
   * the rows it gives now are upserted (only those whose content or metadata changed, or that
   * come with a vector) and the rows it gave before and gives no more are deleted. Call with the
   * tree lock held.
   */
  async sync(tree: MarkdownTree, written?: WrittenVectors): Promise<void> {
    if (this.#rebuild) {
      this.#rebuild = false;
      await this.rebuild(tree);
      return;
    }
    const vectors = written?.vectors;
    const hashes = this.#hashes();
    // A file the index already holds as it is (another process indexed its appends) has
    // nothing pending: its next appends start from this hash.
    for (const file of tree.files.values())
      if (file.appendedFrom && hashes.get(file.path) === file.hash) file.appendedFrom = undefined;
    const appended = appendedFiles(tree, hashes, vectors);
    if (appended) {
      await this.#syncAppended(appended, written);
      return;
    }
    const winners = new Map<string, TreeRow[]>();
    const add = (row: TreeRow) => {
      const list = winners.get(row.source.path);
      if (list) list.push(row);
      else winners.set(row.source.path, [row]);
    };
    for (const row of tree.allEntries()) add(row);
    for (const row of tree.allChunks()) add(row);
    const upserts: EntryUpsert[] = [];
    const gone = new Set<string>();
    const present = new Set<string>();
    const updates: FileUpdate[] = [];
    for (const [path, file] of tree.files) {
      const rows = winners.get(path) ?? [];
      for (const row of rows) present.add(identity(row.entry.namespace, row.entry.key));
      const recorded = hashes.get(path);
      const forced =
        vectors && rows.some((row) => vectors.has(identity(row.entry.namespace, row.entry.key)));
      if (recorded === file.hash && !forced) continue;
      const previous = recorded === undefined ? {} : this.#rows(path);
      const next: Record<string, string> = {};
      for (const row of rows) {
        const id = identity(row.entry.namespace, row.entry.key);
        const hash = rowHash(row.entry);
        next[id] = hash;
        const given = vectors?.get(id);
        if (previous[id] !== hash || given) upserts.push(upsertOf(row.entry, given));
      }
      for (const id of Object.keys(previous)) if (!(id in next)) gone.add(id);
      updates.push({ file, rows: next, replace: true });
    }
    const removedFiles: string[] = [];
    for (const path of hashes.keys()) {
      if (tree.files.has(path)) continue;
      removedFiles.push(path);
      for (const id of Object.keys(this.#rows(path))) gone.add(id);
    }
    await this.#apply(gone, present, upserts, written?.fingerprint);
    this.#record(updates, removedFiles);
    for (const file of tree.files.values()) file.appendedFrom = undefined;
  }

  /**
   * The index after appends only (the usual store): the appended rows are upserted and recorded,
   * nothing else is read, so its cost does not grow with the files.
   */
  async #syncAppended(
    files: { file: TreeFile; rows: TreeRow[] }[],
    written: WrittenVectors | undefined,
  ): Promise<void> {
    const upserts: EntryUpsert[] = [];
    const updates: FileUpdate[] = [];
    for (const { file, rows: appended } of files) {
      const rows: Record<string, string> = {};
      for (const row of appended) {
        const id = identity(row.entry.namespace, row.entry.key);
        rows[id] = rowHash(row.entry);
        upserts.push(upsertOf(row.entry, written?.vectors.get(id)));
      }
      updates.push({ file, rows, replace: false });
    }
    await this.#apply(new Set(), new Set(), upserts, written?.fingerprint);
    this.#record(updates, []);
    for (const { file } of files) file.appendedFrom = undefined;
  }

  /** Records files' hashes and rows (all of them, or added ones) and forgets removed files. */
  #record(updates: FileUpdate[], removedFiles: string[]): void {
    const upsertFile = this.#db.prepare(
      "INSERT INTO markdown_files (path, hash, size, mtime_ms) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, size = excluded.size, mtime_ms = excluded.mtime_ms",
    );
    const removeFile = this.#db.prepare("DELETE FROM markdown_files WHERE path = ?");
    const removeRows = this.#db.prepare("DELETE FROM markdown_rows WHERE path = ?");
    const upsertRow = this.#db.prepare(
      "INSERT INTO markdown_rows (path, id, hash) VALUES (?, ?, ?) ON CONFLICT(path, id) DO UPDATE SET hash = excluded.hash",
    );
    this.#db.transaction(() => {
      for (const { file, rows, replace } of updates) {
        upsertFile.run(file.path, file.hash, file.size, file.mtimeMs);
        if (replace) removeRows.run(file.path);
        for (const [id, hash] of Object.entries(rows)) upsertRow.run(file.path, id, hash);
      }
      for (const path of removedFiles) {
        removeFile.run(path);
        removeRows.run(path);
      }
    })();
  }

  async #apply(
    gone: Set<string>,
    present: Set<string>,
    upserts: EntryUpsert[],
    fingerprint: string | undefined,
  ): Promise<void> {
    // Deletions first: a key that moved file, or an id now used by another key, is re-added after.
    const deletes: EntryKey[] = [];
    for (const id of gone) {
      if (present.has(id)) continue;
      const [namespace, key] = id.split("\u0000") as [string, string];
      deletes.push({ namespace, key });
    }
    if (deletes.length > 0) await this.driver.write({ upserts: [], supersessions: [], deletes });
    if (upserts.length === 0) return;
    // A line copied by hand (its id already another key's) is indexed under an id of its own:
    // ids are unique per store, a rule of every driver's upserts.
    await this.driver.write({
      upserts,
      supersessions: [],
      deletes: [],
      ...(fingerprint === undefined ? {} : { vectorFingerprint: fingerprint }),
    });
  }

  /** Forgets everything indexed (the embedding cache stays) and indexes the tree again. */
  async rebuild(tree: MarkdownTree): Promise<void> {
    await this.driver.deleteWhere({
      namespace: undefined,
      categories: undefined,
      olderThan: undefined,
      superseded: undefined,
      keepNewest: 0,
      dryRun: false,
    });
    this.#db.exec("DELETE FROM markdown_files; DELETE FROM markdown_rows");
    await this.sync(tree);
  }

  async close(): Promise<void> {
    this.#db.close();
    await this.driver.close();
  }
}
