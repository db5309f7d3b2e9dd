import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

/** A checkpoint at most this often, when something was committed since the last one. */
const INTERVAL_MS = 1000;
/**
 * The connection's own checkpoint threshold (pages) while the thread runs: a backstop that bounds
 * the WAL if the thread falls behind (a bulk import) or fails. SQLite's default is 1,000.
 */
export const BACKSTOP_PAGES = 10_000;

/**
 * The thread's program (CommonJS, run with `eval`): its own connection to the file, and every
 * INTERVAL_MS, when `PRAGMA data_version` moved (a commit by any connection), a PASSIVE
 * checkpoint, which copies what no reader still needs and never waits for a lock.
 */
const PROGRAM = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 0");
const version = db.prepare("PRAGMA data_version").pluck();
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
let seen;
const timer = setInterval(() => {
  try {
    const now = version.get();
    if (now === seen) return;
    seen = now;
    checkpoint.get();
  } catch (error) {
    // SQLITE_BUSY (another checkpoint runs): the next turn tries again.
    if (!String(error && error.code).startsWith("SQLITE_BUSY")) parentPort.postMessage(String(error));
  }
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * WAL checkpoints on a thread of their own. A checkpoint copies the WAL into the database file and
 * syncs both to disk; SQLite runs it in the connection whose commit crossed the threshold, so a
 * server worker stalled on the disk there with its requests waiting: one worker kept 0.96 of a
 * core busy under recall load, and 1.04 with no checkpoints at all (docs/benchmarks.md). Here the
 * connection's own threshold is raised to a backstop (BACKSTOP_PAGES) and the thread checkpoints
 * once a second when anything was committed.
 */
export class BackgroundCheckpoint {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once("exit", () => resolve()));
  }

  /** Starts the thread on `db`'s file and raises the connection's own threshold. */
  static start(db: Database.Database, file: string, log: (message: string) => void) {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(PROGRAM, {
      eval: true,
      // The parent's flags would make the program ESM under `--input-type=module` (node -e).
      execArgv: [],
      workerData: { driver, file, intervalMs: INTERVAL_MS },
    });
    // Waiting for the next checkpoint never keeps a process alive.
    worker.unref();
    worker.on("message", (message) => log(`background checkpoint: ${message}`));
    worker.on("error", (error) => log(`background checkpoint stopped: ${error.message}`));
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    return new BackgroundCheckpoint(worker);
  }

  /** Stops the thread after its current checkpoint; resolves once it has closed its connection. */
  async stop(): Promise<void> {
    // Unreferenced, the thread would not keep the event loop alive while we wait for it: a
    // program whose last work is this close (a CLI command) would end mid-await (exit 13).
    this.#worker.ref();
    this.#worker.postMessage("stop");
    await this.#exited;
  }
}
