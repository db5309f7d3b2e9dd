import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { BackendUnavailableError } from "@memory/api";
import Database from "better-sqlite3";
import { FtsUpkeep } from "./fts-upkeep.js";
import { BulkLoadGate } from "./import/bulk-load-gate.js";

export interface OpenedDatabase {
  db: Database.Database;
  /** Absolute file name, or `:memory:`. */
  file: string;
  /** True when this package opened the connection (and so must close it). */
  owned: boolean;
  /** This connection's side of the triggers' `memory_bulk_loading` function (imports). */
  bulkLoad: BulkLoadGate;
  /** This connection's merge steps of the full-text index (fts-upkeep.ts). */
  ftsUpkeep: FtsUpkeep;
}

/** How long SQLite itself waits for a lock another connection holds (`busy_timeout`). */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Pragmas, each with its reason:
 * - WAL: readers never block the writer, and several processes can share the file.
 * - synchronous=NORMAL: in WAL mode a crash can lose the last commits on power loss but never
 *   corrupts the file; FULL would fsync on every commit and cost ~10x on single stores.
 * - busy_timeout=5000: other processes hold the write lock for milliseconds; wait, don't fail.
 *   The driver's own writes wait without it, on a timer (`immediateWithoutWaiting`).
 * - temp_store=MEMORY: sorts for ORDER BY/GROUP BY stay off disk.
 * - cache_size=-65536: 64 MiB page cache, enough for the FTS index hot set at 100k entries.
 * - mmap_size=0: no memory-mapped reads. In WAL mode SQLite unmaps the whole file whenever it
 *   finds that another process committed, so two server workers (each one's usage writes) made
 *   the other remap and fault its pages back in on every read: a recall cost 2.1-2.5 ms of CPU
 *   with two workers against 1.0 alone at 10k entries, 5-6 ms against 2 at 100k. Without the
 *   map it costs 1.3-1.6 ms with two workers, and alone it costs the same as with it (read()
 *   copies from the OS page cache; the 64 MiB page cache keeps the hot set). docs/benchmarks.md.
 */
export function applyPragmas(db: Database.Database): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("temp_store = MEMORY");
  db.pragma("cache_size = -65536");
  db.pragma("mmap_size = 0");
  db.pragma("foreign_keys = OFF");
}

/** Opens (or adopts) the connection. Every failure names the file and what to check. */
export function openDatabase(options: {
  path?: string;
  database?: Database.Database;
}): OpenedDatabase {
  if (options.database) {
    const db = options.database;
    applyPragmas(db);
    return {
      db,
      file: db.name,
      owned: false,
      ...connectionParts(db),
    };
  }
  const path = options.path;
  if (!path) {
    throw new BackendUnavailableError(
      "The sqlite backend needs a database file: pass `path` (or an open `database`), or set [sqlite].path / data_dir in memory.toml.",
    );
  }
  const file = path === ":memory:" ? path : resolve(path);
  let db: Database.Database | undefined;
  try {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    db = new Database(file);
    applyPragmas(db);
    // Reading the schema is what detects a file that is not a database.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (error) {
    db?.close();
    const reason = error instanceof Error ? error.message : String(error);
    const code = String((error as { code?: unknown } | null)?.code ?? "");
    // Advice names memory.toml keys: that is where most users set the path.
    const advice =
      code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")
        ? "The file is not a SQLite database or is damaged: keep a copy, then move it away (a new, empty one is created) or point [sqlite].path / data_dir at the right file"
        : "Check that the file and its directory exist or can be created, and are readable and writable by this process, or point [sqlite].path / data_dir at a writable place";
    throw new BackendUnavailableError(
      `Cannot open the memory database ${file}: ${reason}. ${advice}; [sqlite].fallback_to_none = true continues without memory.`,
      { cause: error, details: { file } },
    );
  }
  return { db, file, owned: true, ...connectionParts(db) };
}

/** What each connection keeps of its own, opened or adopted. */
function connectionParts(db: Database.Database): Pick<OpenedDatabase, "bulkLoad" | "ftsUpkeep"> {
  return { bulkLoad: new BulkLoadGate(db), ftsUpkeep: new FtsUpkeep() };
}
