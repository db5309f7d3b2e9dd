import { createTestEmbedder, gatedEmbedder } from "@memory/testkit";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createPostgresMemory, type PostgresMemoryOptions } from "../src/index.js";
import { schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("caches");
const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const memory of opened.splice(0)) await memory.close().catch(() => {});
  await schemas.dropAll();
});

const open = (schema: string, options: Partial<PostgresMemoryOptions> = {}) => {
  const memory = createPostgresMemory({ connectionString: TEST_URL, schema, ...options });
  opened.push(memory);
  return memory;
};

/** A memory whose provider counts query embeddings: each one is a recall that was computed. */
async function counted(schema: string, options: Partial<PostgresMemoryOptions>) {
  const embedder = gatedEmbedder(createTestEmbedder({ dimensions: 16 }));
  const memory = open(schema, { embedder: embedder.provider, ...options });
  await memory.init();
  const queries = () => embedder.calls.filter(([text]) => text!.startsWith("where")).length;
  return { memory, queries };
}

// Before: PostgreSQL kept no recall results at all (recall_cache_size and
// recall_cache_ttl_seconds did nothing) and sized its query-embedding LRU with
// recall_cache_size, while embedding_cache_max did nothing.
describe("postgres: recall_cache_size and recall_cache_ttl_seconds (a hot cache of results)", () => {
  it("answers a repeated recall from the cache, and sees another replica's write at once", async () => {
    const schema = schemas.next();
    const { memory, queries } = await counted(schema, { embeddingCacheMax: 0 });
    await memory.store({ key: "tea", content: "the kettle is in the kitchen" });
    const first = await memory.recall("where is the kettle", { minScore: 0 });
    const again = await memory.recall("where is the kettle", { minScore: 0 });
    // The same results (each recall has its own recallId).
    expect([...again]).toEqual([...first]);
    expect(again.recallId).not.toBe(first.recallId);
    expect(queries()).toBe(1);

    const replica = open(schema, { embedder: createTestEmbedder({ dimensions: 16 }) });
    await replica.store({ key: "spare", content: "a spare kettle is in the garage" });
    const after = await memory.recall("where is the kettle", { minScore: 0 });
    expect(after.map((entry) => entry.key).sort()).toEqual(["spare", "tea"]);
    expect(queries()).toBe(2);
  });

  it("sees another replica's snooze at once; recording usage and feedback keep the cache", async () => {
    const schema = schemas.next();
    const { memory, queries } = await counted(schema, { embeddingCacheMax: 0 });
    await memory.store({ key: "tea", content: "the kettle is in the kitchen" });
    await memory.store({ key: "spare", content: "a spare kettle is in the garage" });
    const first = await memory.recall("where is the kettle", { minScore: 0 });
    await memory.feedback({ recallId: first.recallId!, used: ["tea"] });
    const again = await memory.recall("where is the kettle", { minScore: 0 });
    expect([...again]).toEqual([...first]);
    expect(queries()).toBe(1);

    const replica = open(schema, { embedder: createTestEmbedder({ dimensions: 16 }) });
    await replica.snooze("spare", { forMs: 86_400_000 });
    const after = await memory.recall("where is the kettle", { minScore: 0 });
    expect(after.map((entry) => entry.key)).toEqual(["tea"]);
    expect(queries()).toBe(2);
  });

  it("computes again after recall_cache_ttl_seconds", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const { memory, queries } = await counted(schemas.next(), {
      embeddingCacheMax: 0,
      recallCacheTtlSeconds: 60,
      now: () => now,
    });
    await memory.store({ key: "tea", content: "the kettle is in the kitchen" });
    await memory.recall("where is the kettle");
    now += 59_000;
    await memory.recall("where is the kettle");
    expect(queries()).toBe(1);
    now += 2_000;
    await memory.recall("where is the kettle");
    expect(queries()).toBe(2);
  });

  it("caches nothing with recall_cache_size = 0", async () => {
    const { memory, queries } = await counted(schemas.next(), {
      embeddingCacheMax: 0,
      recallCacheSize: 0,
    });
    await memory.store({ key: "tea", content: "the kettle is in the kitchen" });
    for (let i = 0; i < 3; i++) await memory.recall("where is the kettle");
    expect(queries()).toBe(3);
  });

  it("caches nothing while another session's write to the schema is still open", async () => {
    const schema = schemas.next();
    const { memory, queries } = await counted(schema, { embeddingCacheMax: 0 });
    await memory.store({ key: "tea", content: "the kettle is in the kitchen" });
    const writer = new pg.Client({ connectionString: TEST_URL });
    await writer.connect();
    try {
      await writer.query("BEGIN");
      await writer.query(`LOCK TABLE "${schema}".memories IN ROW EXCLUSIVE MODE`);
      await memory.recall("where is the kettle");
      await memory.recall("where is the kettle");
      expect(queries()).toBe(2);
      await writer.query("COMMIT");
      await memory.recall("where is the kettle");
      await memory.recall("where is the kettle");
      expect(queries()).toBe(3);
    } finally {
      await writer.end();
    }
  });
});

describe("postgres: embedding_cache_max (query embeddings kept in memory)", () => {
  it("embeds a repeated query once with a cache, every time with 0", async () => {
    const cached = await counted(schemas.next(), { recallCacheSize: 0, embeddingCacheMax: 10 });
    for (let i = 0; i < 3; i++) await cached.memory.recall("where is the kettle");
    expect(cached.queries()).toBe(1);
    const uncached = await counted(schemas.next(), { recallCacheSize: 0, embeddingCacheMax: 0 });
    for (let i = 0; i < 3; i++) await uncached.memory.recall("where is the kettle");
    expect(uncached.queries()).toBe(3);
  });

  it("rejects a negative or fractional embeddingCacheMax", () => {
    expect(() => open(schemas.next(), { embeddingCacheMax: -1 })).toThrow(/embeddingCacheMax/);
    expect(() => open(schemas.next(), { embeddingCacheMax: 1.5 })).toThrow(/embeddingCacheMax/);
  });
});

// Before: the re-index notice went to console.warn whatever the caller wanted.
describe("postgres: the logger option", () => {
  it("sends the text_language re-index notice to the logger, not to console.warn", async () => {
    const schema = schemas.next();
    const first = open(schema, { textLanguage: "english" });
    await first.store({ key: "k", content: "running shoes" });
    await first.close();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const lines: string[] = [];
      const second = open(schema, { textLanguage: "none", logger: (line) => lines.push(line) });
      await second.init();
      expect(lines.join("\n")).toMatch(/text_language|re-?index/i);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
