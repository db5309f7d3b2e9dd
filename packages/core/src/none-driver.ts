import type {
  DeleteReport,
  DriverHealth,
  EntryKey,
  MemoryDriver,
  MemoryEntry,
  RecallStages,
  ScanPage,
  UnhonouredSettings,
  WriteBatch,
  WriteResult,
} from "@memory/api";

const NOTHING: RecallStages = {
  recent: async () => [],
  keyword: async () => ({
    hits: [],
    statistics: { documents: 0, averageLength: 0, documentFrequency: [] },
  }),
  vectorAvailability: () => ({ usable: false, reason: "the none backend stores nothing" }),
  embedQuery: async () => {
    throw new Error("the none backend has no vectors");
  },
  vector: async () => [],
  cosines: async () => new Map(),
  like: async () => [],
  attachEmbeddings: async (results) => results,
};

/**
 * The degraded `none` backend as a driver: remembers nothing and finds nothing, so an agent keeps
 * running when its real store cannot be opened (`healthCheck()` says why). A write returns what
 * it would have stored; leases are always granted (no shared store to coordinate through) with a
 * fresh token; job state is not kept.
 */
export class NoneDriver implements MemoryDriver {
  readonly name = "none";
  readonly unhonouredSettings: UnhonouredSettings = {};
  readonly capabilities = {
    keywordSearch: false,
    vectorSearch: false,
    cjkSearch: false,
    persistent: false,
    multiInstance: true,
    deferredEmbedding: false,
  };
  readonly recallStages = NOTHING;
  readonly #reason: string;
  #tokens = 0;

  constructor(reason = "the none backend was configured") {
    this.#reason = reason;
  }

  async open(): Promise<void> {}
  async close(): Promise<void> {}
  async read(keys: readonly EntryKey[]): Promise<(MemoryEntry | undefined)[]> {
    return keys.map(() => undefined);
  }
  async write(batch: WriteBatch): Promise<WriteResult> {
    return {
      upserted: batch.upserts.map((upsert) => ({ ...upsert.entry })),
      superseded: batch.supersessions.map(() => false),
      deleted: batch.deletes.map(() => false),
      refused: [],
    };
  }
  async scan(): Promise<ScanPage> {
    return { entries: [] };
  }
  async count(): Promise<number> {
    return 0;
  }
  async deleteWhere(): Promise<DeleteReport> {
    return { deleted: 0, byCategory: {} };
  }
  readonly leases = {
    acquire: async (name: string, holder: string, ttlMs: number, nowMs: number) => ({
      name,
      holder,
      token: ++this.#tokens,
      expiresAt: new Date(nowMs + ttlMs).toISOString(),
    }),
    release: async () => true,
    readJobState: async () => null,
    writeJobState: async () => {},
  };
  readonly vectors = {
    pending: async () => ({ entries: [], next: undefined }),
    countPending: async () => 0,
    save: async () => 0,
    fingerprint: async () => undefined,
    reset: async () => {},
  };
  async health(): Promise<DriverHealth> {
    return {
      storage: { writable: false, reason: `nothing is stored: ${this.#reason}` },
      vectorProblem: this.#reason,
      details: { reason: `nothing is stored: ${this.#reason}` },
    };
  }
}
