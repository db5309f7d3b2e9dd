import { appendFileSync, closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import type { DriverUsage, EntryKey, EntryMarkCursor, UsageEvent, UsageRecord } from "@memory/api";
import { writeFileAtomic } from "./files/atomic-write.js";
import type { TreeLock } from "./files/tree-lock.js";

/** Append-only usage events, one JSON object a line (README, "Layout"). */
export const USAGE_EVENTS_FILE = "usage-events.jsonl";
/** Every entry's usage record, one JSON array, replaced atomically on each change. */
export const USAGE_RECORDS_FILE = "usage.json";

const identity = (namespace: string, key: string) => `${namespace}\u0000${key}`;

/** The file's text, or "" when it does not exist yet. */
function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/**
 * The events of the events file, in append order. A line that does not read (the tail of an
 * append cut short by a crash) is skipped; `mentioning` skips the JSON parse of lines that do not
 * contain it (a recall id), which is most of them.
 */
function parseEvents(text: string, mentioning?: string): UsageEvent[] {
  const events: UsageEvent[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || (mentioning !== undefined && !line.includes(mentioning))) continue;
    try {
      const event = JSON.parse(line) as UsageEvent;
      if (typeof event === "object" && event !== null && typeof event.key === "string")
        events.push(event);
    } catch {}
  }
  return events;
}

const eventLines = (events: readonly UsageEvent[]) =>
  events.map((event) => `${JSON.stringify(event)}\n`).join("");

/**
 * Usage storage of a memory tree (`capabilities.usage`): NOT derivable from the files, so it lives
 * in the state directory beside the leases. Writes hold the tree's cross-process lock for their
 * read-modify-write (two processes recording at once lose no count); reads take no lock: the
 * records file is only ever replaced by a rename, and the events file only appended to (a torn
 * last line is skipped) or replaced by a rename.
 */
export class TreeUsage implements DriverUsage {
  readonly #events: string;
  readonly #records: string;
  readonly #lock: TreeLock;
  readonly #ready: () => Promise<unknown>;
  readonly #stored: () => (namespace: string, key: string) => boolean;

  /**
   * `ready` creates the tree (the state directory lives in it) before the first write; `stored`
   * re-reads the files (called under the lock) and says which keys are stored entries now.
   */
  constructor(
    stateDir: string,
    lock: TreeLock,
    ready: () => Promise<unknown>,
    stored: () => (namespace: string, key: string) => boolean,
  ) {
    this.#events = join(stateDir, USAGE_EVENTS_FILE);
    this.#records = join(stateDir, USAGE_RECORDS_FILE);
    this.#lock = lock;
    this.#ready = ready;
    this.#stored = stored;
  }

  async #locked<T>(body: () => T): Promise<T> {
    await this.#ready();
    return this.#lock.run(body);
  }

  #readRecords(): Map<string, UsageRecord> {
    const text = readText(this.#records);
    const records = new Map<string, UsageRecord>();
    if (text === "") return records;
    let stored: UsageRecord[];
    try {
      stored = JSON.parse(text) as UsageRecord[];
    } catch {
      return records; // damaged (never by this code: it is replaced atomically): start over
    }
    for (const record of stored) records.set(identity(record.namespace, record.key), record);
    return records;
  }

  #writeRecords(records: Map<string, UsageRecord>): void {
    writeFileAtomic(this.#records, JSON.stringify([...records.values()]));
  }

  /** Appends lines, first ending a line a crash left without its line break. */
  #append(events: readonly UsageEvent[]): void {
    if (events.length === 0) return;
    appendFileSync(this.#events, (this.#endsCut() ? "\n" : "") + eventLines(events));
  }

  #endsCut(): boolean {
    let fd: number;
    try {
      fd = openSync(this.#events, "r");
    } catch {
      return false;
    }
    try {
      const { size } = fstatSync(fd);
      if (size === 0) return false;
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      return last[0] !== 0x0a;
    } finally {
      closeSync(fd);
    }
  }

  record(
    events: readonly UsageEvent[],
    update: (current: UsageRecord | undefined, events: readonly UsageEvent[]) => UsageRecord,
  ): Promise<void> {
    return this.#locked(() => {
      const byKey = new Map<string, UsageEvent[]>();
      for (const event of events) {
        const id = identity(event.namespace, event.key);
        const list = byKey.get(id);
        if (list) list.push(event);
        else byKey.set(id, [event]);
      }
      // Every update is computed before anything is written: one that throws writes nothing.
      // Records only for stored entries (a free-text chunk, or a key forgotten since the recall,
      // has none): an entry stored later under the key starts from zero.
      const records = this.#readRecords();
      const stored = this.#stored();
      for (const [id, list] of byKey) {
        const { namespace, key } = list[0] as UsageEvent;
        if (stored(namespace, key)) records.set(id, update(records.get(id), list));
      }
      this.#append(events);
      this.#writeRecords(records);
    });
  }

  async events(namespace: string, recallId: string): Promise<UsageEvent[]> {
    return parseEvents(readText(this.#events), recallId).filter(
      (event) => event.namespace === namespace && event.recallId === recallId,
    );
  }

  async read(namespace: string, keys: readonly string[]): Promise<(UsageRecord | undefined)[]> {
    const records = this.#readRecords();
    return keys.map((key) => records.get(identity(namespace, key)));
  }

  async scan(
    namespace: string | undefined,
    after: EntryMarkCursor | undefined,
    limit: number,
  ): Promise<UsageRecord[]> {
    const position = (record: { namespace: string; key: string }) =>
      [record.namespace, record.key] as const;
    const before = (a: readonly [string, string], b: readonly [string, string]) =>
      a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
    return [...this.#readRecords().values()]
      .filter(
        (record) =>
          (namespace === undefined || record.namespace === namespace) &&
          (after === undefined || before(position(after), position(record))),
      )
      .sort((a, b) => (before(position(a), position(b)) ? -1 : 1))
      .slice(0, limit);
  }

  put(records: readonly UsageRecord[]): Promise<void> {
    return this.#locked(() => {
      const stored = this.#readRecords();
      const present = this.#stored();
      for (const record of records)
        if (present(record.namespace, record.key))
          stored.set(identity(record.namespace, record.key), record);
      this.#writeRecords(stored);
    });
  }

  prune(olderThan: string, keep: number): Promise<number> {
    return this.#locked(() => {
      const events = parseEvents(readText(this.#events));
      const young = events.filter((event) => !(event.at < olderThan));
      const kept = young.slice(Math.max(0, young.length - keep));
      const removed = events.length - kept.length;
      if (removed > 0) writeFileAtomic(this.#events, eventLines(kept));
      return removed;
    });
  }

  async countEvents(): Promise<number> {
    return parseEvents(readText(this.#events)).length;
  }

  /**
   * Removes the records and events of deleted entries. Call with the tree lock held (the write
   * that deletes them holds it). The events file is rewritten only when a deleted entry has a
   * record: an entry surfaced while stored has one, so deleting entries that were never surfaced
   * costs a read of the records file only (events appended for the key before it was stored, which
   * no record counts, stay until pruned).
   */
  removeLocked(keys: readonly EntryKey[]): void {
    if (keys.length === 0) return;
    const records = this.#readRecords();
    const gone = new Set<string>();
    for (const { namespace, key } of keys) {
      const id = identity(namespace, key);
      if (records.delete(id)) gone.add(id);
    }
    if (gone.size === 0) return;
    const events = parseEvents(readText(this.#events));
    const kept = events.filter((event) => !gone.has(identity(event.namespace, event.key)));
    if (kept.length !== events.length) writeFileAtomic(this.#events, eventLines(kept));
    this.#writeRecords(records);
  }
}
