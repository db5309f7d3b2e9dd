import { randomUUID } from "node:crypto";
import { type Memory, type MemoryEntry, MemoryError } from "@memory/api";
import type { AgentInputItem, Session } from "@openai/agents";

/** Options of {@link AgentMemorySession}. */
export interface AgentMemorySessionOptions {
  /** The conversation's id; default a random UUID. Kept as the entries' `sessionId`. */
  sessionId?: string;
  /** Namespace of the entries; default the memory's `"default"`. */
  namespace?: string;
  /**
   * Category of the entries; default `"session"`, apart from `conversation` (autosaved turns)
   * and the facts, so a recall can take or leave them by category.
   */
  category?: string;
}

/** One stored item found by {@link AgentMemorySession.search}. */
export interface SessionSearchResult {
  item: AgentInputItem;
  /** Relevance in [0, 1], as `Memory.recall` scores it. */
  score: number;
  sessionId: string;
  key: string;
}

export const SESSION_CATEGORY = "session";

// Zero-padded so that the keys of one session sort in the order the items were added.
const SEQUENCE_DIGITS = 12;

function itemKey(sessionId: string, sequence: number): string {
  return `session:${sessionId}:${String(sequence).padStart(SEQUENCE_DIGITS, "0")}`;
}

function sequenceOf(key: string, prefix: string): number | undefined {
  if (!key.startsWith(prefix)) return undefined;
  const digits = key.slice(prefix.length);
  return /^\d+$/.test(digits) ? Number(digits) : undefined;
}

function parseItem(entry: MemoryEntry): AgentInputItem {
  try {
    return JSON.parse(entry.content) as AgentInputItem;
  } catch (error) {
    throw new MemoryError(
      "INVALID_INPUT",
      `Session item "${entry.key}" in namespace "${entry.namespace}" is not JSON: it was changed outside the session. Forget that key or clear the session.`,
      { cause: error },
    );
  }
}

/**
 * An OpenAI Agents JS `Session` whose conversation items are entries of a `Memory`: one entry
 * per item (the item's JSON as content, so it comes back exactly), keyed
 * `session:<sessionId>:<sequence>`, with the session id as `sessionId`. Pass it to
 * `run(agent, input, { session })`. Because the items are memory entries, they survive restarts
 * and `search()` recalls over them (keyword and, with an embedder, by meaning).
 *
 * One writer per session id: two instances adding to the same session at once could number
 * items alike. Nothing is opened here; the memory is the caller's to close.
 */
export class AgentMemorySession implements Session {
  readonly #memory: Memory;
  readonly #sessionId: string;
  readonly #namespace: string | undefined;
  readonly #category: string;
  readonly #prefix: string;
  /** Next sequence number; read from the store on the first write, then counted here. */
  #next: number | undefined;
  /** Writes run one after another, so items keep the order they were added in. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(memory: Memory, options: AgentMemorySessionOptions = {}) {
    this.#memory = memory;
    this.#sessionId = options.sessionId ?? randomUUID();
    this.#namespace = options.namespace;
    this.#category = options.category ?? SESSION_CATEGORY;
    this.#prefix = `session:${this.#sessionId}:`;
  }

  async getSessionId(): Promise<string> {
    return this.#sessionId;
  }

  /** The items in the order they were added; with `limit`, the last `limit` of them. */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    await this.#settled();
    const entries = await this.#entries();
    const kept = limit === undefined ? entries : limit <= 0 ? [] : entries.slice(-limit);
    return kept.map(({ entry }) => parseItem(entry));
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    await this.#serially(async () => {
      for (const item of items) {
        const sequence = await this.#take();
        await this.#memory.store({
          key: itemKey(this.#sessionId, sequence),
          content: JSON.stringify(item),
          category: this.#category,
          sessionId: this.#sessionId,
          ...this.#scope(),
        });
      }
    });
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    return this.#serially(async () => {
      const last = (await this.#entries()).at(-1);
      if (!last) return undefined;
      const item = parseItem(last.entry);
      await this.#memory.forget(last.entry.key, this.#scope());
      return item;
    });
  }

  /** Deletes this session's items (only those: other entries with its session id stay). */
  async clearSession(): Promise<void> {
    await this.#serially(async () => {
      for (const { entry } of await this.#entries())
        await this.#memory.forget(entry.key, this.#scope());
    });
  }

  /**
   * Recalls stored items relevant to `query`, best first: this session's, or with
   * `allSessions` those of every session in the namespace (the same category).
   */
  async search(
    query: string,
    options: {
      limit?: number;
      minScore?: number;
      allSessions?: boolean;
      signal?: AbortSignal;
    } = {},
  ): Promise<SessionSearchResult[]> {
    await this.#settled();
    const found = await this.#memory.recall(query, {
      ...this.#scope(),
      categories: [this.#category],
      ...(options.allSessions ? {} : { sessionId: this.#sessionId }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.minScore === undefined ? {} : { minScore: options.minScore }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return found
      .filter((entry) => entry.key.startsWith("session:") && entry.sessionId !== undefined)
      .map((entry) => ({
        item: parseItem(entry),
        score: entry.score ?? 0,
        sessionId: entry.sessionId as string,
        key: entry.key,
      }));
  }

  #scope(): { namespace?: string } {
    return this.#namespace === undefined ? {} : { namespace: this.#namespace };
  }

  async #entries(): Promise<{ entry: MemoryEntry; sequence: number }[]> {
    const rows: { entry: MemoryEntry; sequence: number }[] = [];
    // export streams every match (list stops at 10,000); namespace given, it is only this one.
    for await (const entry of this.#memory.export({
      namespace: this.#namespace ?? "default",
      sessionId: this.#sessionId,
      categories: [this.#category],
    })) {
      const sequence = sequenceOf(entry.key, this.#prefix);
      if (sequence !== undefined) rows.push({ entry, sequence });
    }
    return rows.sort((a, b) => a.sequence - b.sequence);
  }

  /** Runs inside #serially only, so two writes never take the same number. */
  async #take(): Promise<number> {
    if (this.#next === undefined) this.#next = ((await this.#entries()).at(-1)?.sequence ?? 0) + 1;
    return this.#next++;
  }

  /** Waits for the writes already started (their failures are their callers'). */
  async #settled(): Promise<void> {
    await this.#queue.catch(() => undefined);
  }

  #serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.catch(() => undefined).then(work);
    this.#queue = run;
    return run;
  }
}
