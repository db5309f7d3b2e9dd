import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { MemoryTimeoutError } from "@memory/api";

export interface TreeLockOptions {
  /** Give up after this long (default 30 000 ms) with a TIMEOUT error. */
  timeoutMs?: number;
  /** A lock older than this is taken over even if its process still runs (default 60 000 ms). */
  staleMs?: number;
  /**
   * After waiting this long a process claims the next turn (default 1 000 ms): see `#acquire`.
   * Shorter hands the lock between processes more often, and each hand-over costs the next
   * writer a check of what the other wrote (a read and hash of a grown file).
   */
  claimAfterMs?: number;
  /** Waits between attempts (tests inject one); default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

interface LockContent {
  pid: number;
  host: string;
  time: number;
  token: string;
}

/** How often a claimant looks for the lock to come free: it alone may take it then. */
const CLAIMANT_POLL_MS = 2;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// One queue per lock file in this process: instances over one tree take turns here first, so the
// file lock is only contended between processes.
const queues = new Map<string, Promise<void>>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A cross-process lock over a memory tree: a lock file created with O_EXCL holding
 * `{ pid, host, time, token }`. A lock whose process is gone (same host) or that is older than
 * `staleMs` is taken over: renamed away (atomic, so one taker wins), checked to be the lock that
 * was judged stale, and replaced. Every writer of the tree (this package, and any editor or
 * script that follows README "Concurrent edits") holds it for one read-modify-write.
 */
export class TreeLock {
  readonly file: string;
  /** The claim on the next turn (`#acquire`). */
  readonly #next: string;
  readonly #timeoutMs: number;
  readonly #staleMs: number;
  readonly #claimAfterMs: number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(file: string, options: TreeLockOptions = {}) {
    this.file = file;
    this.#next = `${file}.next`;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#staleMs = options.staleMs ?? 60_000;
    this.#claimAfterMs = options.claimAfterMs ?? 1_000;
    this.#sleep = options.sleep ?? defaultSleep;
  }

  /** Runs `body` while holding the lock (in-process queue first, then the lock file). */
  async run<T>(body: () => T | Promise<T>): Promise<T> {
    const previous = queues.get(this.file) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    queues.set(this.file, tail);
    await previous;
    try {
      const token = await this.#acquire();
      try {
        return await body();
      } finally {
        this.#release(this.file, token);
      }
    } finally {
      release();
      if (queues.get(this.file) === tail) queues.delete(this.file);
    }
  }

  /**
   * Takes the lock file. Fair across processes: a process that has waited `claimAfterMs`
   * claims the next turn (`<lock>.next`, created like the lock), and while a live claim of
   * another process stands nobody else takes the lock. Without it a process with a queue of
   * writes takes the lock again in the same tick it releases it, and another process, which
   * polls, never finds it free: two server workers on one Markdown tree, one of them starved
   * into TIMEOUT errors (BENCHMARKS.md, 1M entries).
   */
  async #acquire(): Promise<string> {
    const token = randomBytes(8).toString("hex");
    const started = Date.now();
    let wait = 1;
    let claimed = false;
    try {
      for (;;) {
        if (this.#turnIsOpen(token) && this.#tryCreate(this.file, token)) return token;
        this.#takeOverIfStale(this.file);
        if (!claimed && Date.now() - started >= this.#claimAfterMs)
          claimed = this.#tryCreate(this.#next, token);
        if (Date.now() - started > this.#timeoutMs) {
          throw new MemoryTimeoutError(
            `Timed out after ${this.#timeoutMs} ms waiting for the lock ${this.file}; another process holds it. If no process is writing this memory, delete the file.`,
          );
        }
        await this.#sleep(claimed ? Math.min(wait, CLAIMANT_POLL_MS) : wait);
        wait = Math.min(wait * 2, 25);
      }
    } finally {
      if (claimed) this.#release(this.#next, token);
    }
  }

  /** False while another process's live claim on the next turn stands. */
  #turnIsOpen(token: string): boolean {
    const claim = this.#read(this.#next);
    if (!claim || claim.content?.token === token) return true;
    this.#takeOverIfStale(this.#next);
    return !existsSync(this.#next);
  }

  /** Creates `file` (the lock or the claim) holding this process's `token`; false if it exists. */
  #tryCreate(file: string, token: string): boolean {
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o644);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      if (code === "ENOENT") {
        mkdirSync(dirname(file), { recursive: true });
        return this.#tryCreate(file, token);
      }
      throw error;
    }
    const content: LockContent = { pid: process.pid, host: hostname(), time: Date.now(), token };
    try {
      writeSync(fd, JSON.stringify(content));
    } finally {
      closeSync(fd);
    }
    return true;
  }

  #read(file: string): { raw: string; content: LockContent | undefined } | undefined {
    let raw: string;
    try {
      raw = readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
    try {
      return { raw, content: JSON.parse(raw) as LockContent };
    } catch {
      return { raw, content: undefined };
    }
  }

  /** Removes `file` (the lock or the claim) when its process is gone or it is older than staleMs. */
  #takeOverIfStale(file: string): void {
    const current = this.#read(file);
    if (!current) return;
    const { content } = current;
    let age: number;
    if (content) age = Date.now() - content.time;
    else {
      // Being written right now (created, not yet filled) or damaged: judged by the file's age.
      try {
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        return;
      }
    }
    const dead =
      content !== undefined &&
      content.host === hostname() &&
      content.pid !== process.pid &&
      !processAlive(content.pid);
    if (!dead && age < this.#staleMs) return;
    const aside = `${file}.stale-${randomBytes(4).toString("hex")}`;
    try {
      renameSync(file, aside);
    } catch {
      return; // someone else took it over first
    }
    const taken = this.#read(aside);
    if (taken && taken.raw !== current.raw) {
      // Another taker replaced the stale lock between our read and our rename: put it back.
      try {
        linkSync(aside, file);
      } catch {}
    }
    try {
      unlinkSync(aside);
    } catch {}
  }

  /** Removes `file` (the lock or the claim) if it still holds `token`. */
  #release(file: string, token: string): void {
    const current = this.#read(file);
    if (current?.content?.token !== token) return; // taken over as stale: not ours any more
    try {
      unlinkSync(file);
    } catch {}
  }
}

/**
 * Runs `body` holding the lock of the memory tree at `root`: the protocol for any program that
 * rewrites memory files (an editor plugin, a script). Writes made under it are never lost and
 * never lose the library's writes.
 */
export function withTreeLock<T>(
  root: string,
  body: () => T | Promise<T>,
  options: TreeLockOptions = {},
): Promise<T> {
  return new TreeLock(join(root, ".memory-state", "lock"), options).run(body);
}
