import {
  fuseRrf,
  fuseWeighted,
  type KeywordHit,
  type MemoryEntry,
  MemoryError,
  type VectorHit,
} from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  createPostgresMemory,
  type PostgresMemory,
  type PostgresMemoryOptions,
} from "../src/index.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("rec");
const open: PostgresMemory[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((memory) => memory.close()));
});
afterAll(() => schemas.dropAll());

function create(options: Partial<PostgresMemoryOptions> = {}): PostgresMemory {
  const memory = createPostgresMemory({
    connectionString: TEST_URL,
    schema: schemas.next(),
    maxConnections: 4,
    ...options,
  });
  open.push(memory);
  return memory;
}

const keys = (entries: readonly MemoryEntry[]) => entries.map((entry) => entry.key);

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Rebuilds the two stage lists from the explains of a recall that returned every candidate. */
function stageLists(results: readonly MemoryEntry[]): {
  keyword: KeywordHit[];
  vector: VectorHit[];
} {
  const keyword = results
    .filter((entry) => entry.explain!.keywordRank !== undefined)
    .sort((a, b) => a.explain!.keywordRank! - b.explain!.keywordRank!)
    .map((entry) => ({ id: entry.id, score: entry.explain!.keywordScore! }));
  const vector = results
    .filter((entry) => entry.explain!.vectorRank !== undefined)
    .sort((a, b) => a.explain!.vectorRank! - b.explain!.vectorRank!)
    .map((entry) => ({ id: entry.id, cosine: entry.explain!.cosine! }));
  return { keyword, vector };
}

const CORPUS = [
  "My car needs new tyres before winter",
  "The automobile club meets on Fridays",
  "Drinks two espresso shots every morning",
  "Prefers a latte with oat milk",
  "Coffee beans from Ethiopia taste fruity",
  "Walks the puppy in the park at noon",
  "The dog sleeps on the sofa",
  "Password manager is 1Password",
  "Glad the car passed inspection",
  "Home office faces the garden",
  "The residence has a blue door",
  "Happy with the new coffee grinder",
];

describe("postgres: hybrid fusion (SQL in one statement, or JavaScript after concurrent stages)", () => {
  for (const [strategy, hybridExecution] of [
    ["rrf", "single"],
    ["weighted", "single"],
    ["rrf", "concurrent"],
    ["weighted", "concurrent"],
  ] as const) {
    it(`gives exactly the numbers of @memory/api's ${strategy === "rrf" ? "fuseRrf" : "fuseWeighted"} (${hybridExecution})`, async () => {
      const memory = create({
        hybridExecution,
        embedder: createTestEmbedder(),
        settings: {
          merge_strategy: strategy,
          fts_early_return_score: 1,
          rrf_k: 37,
          vector_weight: 0.6,
          keyword_weight: 0.4,
        },
      });
      await memory.importEntries(
        CORPUS.map((content, i) => ({ key: `k${i}`, content, category: "core" })),
      );
      for (const query of [
        "car coffee",
        "automobile",
        "dog park morning",
        "espresso latte coffee",
      ]) {
        // limit 50: the pool (200) holds every entry, so the results are every candidate.
        const results = await memory.recall(query, { mode: "hybrid", limit: 50 });
        expect(results.length).toBeGreaterThan(0);
        const { keyword, vector } = stageLists(results);
        expect(vector.length).toBe(CORPUS.length);
        const expected =
          strategy === "rrf"
            ? fuseRrf(keyword, vector, 37)
            : fuseWeighted(keyword, vector, { vector: 0.6, keyword: 0.4 });
        const byId = new Map(results.map((entry) => [entry.id, entry]));
        expect(expected.length).toBe(results.length);
        for (const candidate of expected) {
          const entry = byId.get(candidate.id)!;
          expect(entry.explain!.source).toBe("hybrid");
          expect(entry.explain!.strategy).toBe(strategy);
          // Bit-identical, not merely close.
          expect(entry.explain!.fused).toBe(candidate.fused);
          expect(entry.score).toBe(candidate.fused);
        }
        expect(keys(results)).toEqual(expected.map((candidate) => byId.get(candidate.id)!.key));
      }
    });
  }

  it("returns the same entries, ranks and scores whether the stages run concurrently or not", async () => {
    const schema = schemas.next();
    const options = {
      schema,
      embedder: createTestEmbedder(),
      settings: { fts_early_return_score: 1 },
    };
    const concurrent = create({ ...options, hybridExecution: "concurrent" });
    const single = create({ ...options, hybridExecution: "single" });
    await concurrent.importEntries(
      CORPUS.map((content, i) => ({ key: `k${i}`, content, category: "core" })),
    );
    for (const query of ["car coffee", "dog park morning", "blue door office"]) {
      for (const limit of [3, 50]) {
        const a = await concurrent.recall(query, { mode: "hybrid", limit });
        const b = await single.recall(query, { mode: "hybrid", limit });
        expect(a.map((entry) => [entry.id, entry.score, entry.explain])).toEqual(
          b.map((entry) => [entry.id, entry.score, entry.explain]),
        );
      }
    }
  });

  it("returns early on a decisive keyword hit and says so", async () => {
    const memory = create({
      embedder: createTestEmbedder(),
      settings: { fts_early_return_score: 0.5 },
    });
    await memory.store({ key: "zebra", content: "zebra zebra zebra stripes zebra" });
    await memory.store({ key: "other", content: "a horse in a field" });
    const [top] = await memory.recall("zebra", { mode: "hybrid" });
    expect(top!.key).toBe("zebra");
    expect(top!.explain).toMatchObject({ source: "keyword", earlyReturn: true });
  });
});

describe("postgres: keyword stage at scale", () => {
  it("ranks entries holding every term when they fill the pool, with the same scores", async () => {
    const memory = create();
    const entries = [
      ...Array.from({ length: 8 }, (_, i) => ({
        key: `both${i}`,
        content: `alpha beta note ${i}`,
      })),
      ...Array.from({ length: 8 }, (_, i) => ({
        key: `one${i}`,
        content: `alpha alpha alpha note ${i}`,
      })),
    ];
    await memory.importEntries(entries);
    // limit 1 -> pool 4: the eight entries holding both terms fill it, the OR query is skipped.
    const fast = await memory.recall("alpha beta", { mode: "bm25", limit: 1 });
    expect(fast[0]!.key).toMatch(/^both/);
    // limit 50 -> pool 200: not filled, so every entry with either term is ranked.
    const full = await memory.recall("alpha beta", { mode: "bm25", limit: 50 });
    expect(full).toHaveLength(16);
    const score = new Map(full.map((entry) => [entry.key, entry.explain!.keywordScore]));
    expect(fast[0]!.explain!.keywordScore).toBe(score.get(fast[0]!.key));
  });

  it("still finds and scores entries when ANALYZE marks a query term as common", async () => {
    const memory = create();
    await memory.importEntries(
      Array.from({ length: 300 }, (_, i) => ({
        key: `k${i}`,
        content: `the note number w${i} of the day`,
      })),
    );
    await admin(`ANALYZE "${memory.schema}".memories`);
    const results = await memory.recall("the w42", { mode: "bm25", limit: 3 });
    expect(results[0]!.key).toBe("k42");
    // "the" does not select entries here, but it still counts in the score.
    const alone = await memory.recall("w42", { mode: "bm25", limit: 1 });
    expect(results[0]!.explain!.keywordScore).toBeGreaterThan(alone[0]!.explain!.keywordScore!);
    expect(keys(await memory.recall("the", { mode: "bm25", limit: 5 }))).toHaveLength(5);
  });
});

describe("postgres: query syntax cannot be injected", () => {
  const hostile = [
    "a & b",
    "a | b",
    "!a",
    "a <-> b",
    "a <2> b",
    "a:*",
    "a:AB",
    "'a'",
    "''",
    "'",
    "\\",
    "a\\'b",
    "(a",
    "a)",
    "&&&",
    "!!!",
    "<->",
    ":*",
    "%",
    "_",
    "%_%",
    "'; DROP TABLE memories; --",
    '"quoted"',
    "NEAR(a b)",
    "a AND b OR NOT c",
    "$1",
    "::text",
    "e'\\x00'",
  ];

  it("answers every tsquery/LIKE metacharacter query with results, never an error", async () => {
    const memory = create({ embedder: createTestEmbedder() });
    await memory.store({ key: "plain", content: "a and b and c" });
    await memory.store({ key: "ops", content: "operators a & b | !c <-> d:*" });
    for (const query of hostile) {
      for (const mode of ["bm25", "hybrid", "embedding"] as const) {
        const results = await memory.recall(query, { mode, limit: 5 });
        expect(Array.isArray(results), query).toBe(true);
      }
    }
    // The operators are plain words: "a & b" finds entries with a or b, not a parse error.
    expect(keys(await memory.recall("a & b", { mode: "bm25", limit: 5 })).sort()).toEqual([
      "ops",
      "plain",
    ]);
    expect(await memory.count()).toBe(2);
  });

  it("stores SQL-looking keys and content byte-for-byte and leaves the tables alone", async () => {
    const memory = create();
    const key = "'; DROP TABLE memories; --";
    const content = "Robert'); DROP TABLE students;-- \\ % _ $1 ::vector";
    await memory.store({ key, content });
    expect((await memory.get(key))!.content).toBe(content);
    expect(keys(await memory.recall("students", { mode: "bm25" }))).toEqual([key]);
    expect(await memory.count()).toBe(1);
  });

  it("matches _ literally in the LIKE fallback", async () => {
    const memory = create();
    await memory.store({ key: "underscore", content: "see file_name.txt" });
    await memory.store({ key: "any-char", content: "see fileXname.txt" });
    // "e_n" is inside a token, so only the LIKE fallback can find it; unescaped, "_" would
    // also match the X of fileXname.
    const results = await memory.recall("e_n", { mode: "hybrid" });
    expect(keys(results)).toEqual(["underscore"]);
    expect(results[0]!.explain!.source).toBe("like");
    expect(await memory.recall("%", { mode: "hybrid" })).toEqual([]);
  });
});

describe("postgres: CJK recall", () => {
  it("finds Chinese, Japanese and Korean words inside longer runs, in bm25 and hybrid mode", async () => {
    const memory = create({ embedder: createTestEmbedder() });
    await memory.store({ key: "ja", content: "私は記憶力が良いです" });
    await memory.store({ key: "zh", content: "我喜欢喝绿茶和乌龙茶" });
    await memory.store({ key: "ko", content: "저는 커피를 좋아합니다" });
    await memory.store({ key: "mixed", content: "AI記憶システムのテスト" });
    await memory.store({ key: "en", content: "plain English text about memory" });
    expect(keys(await memory.recall("記憶", { mode: "bm25" })).sort()).toEqual(["ja", "mixed"]);
    expect(keys(await memory.recall("記憶力", { mode: "bm25" }))[0]).toBe("ja");
    expect(keys(await memory.recall("乌龙茶", { mode: "bm25" }))).toEqual(["zh"]);
    expect(keys(await memory.recall("커피", { mode: "bm25" }))).toEqual(["ko"]);
    expect(keys(await memory.recall("ai", { mode: "bm25" }))).toEqual(["mixed"]);
    const hybrid = await memory.recall("绿茶", { mode: "hybrid", limit: 1 });
    expect(keys(hybrid)).toEqual(["zh"]);
    expect(hybrid[0]!.explain!.keywordRank).toBe(0);
  });

  it("keeps the index text of a huge entry within tsvector limits", async () => {
    const memory = create();
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`).join(" ");
    await memory.store({ key: "huge", content: `needle ${words}` });
    expect(keys(await memory.recall("needle", { mode: "bm25" }))).toEqual(["huge"]);
    expect((await memory.get("huge"))!.content.length).toBe(words.length + 7);
  });
});

describe("postgres: namespace isolation", () => {
  it("never shows namespace B to recall, list, get, count, export or purge of namespace A", async () => {
    const memory = create({ embedder: createTestEmbedder() });
    for (const namespace of ["a", "b"]) {
      for (let i = 0; i < 5; i++) {
        await memory.store({
          key: `k${i}`,
          content: `secret project note ${i} of ${namespace}`,
          namespace,
          sessionId: "s",
        });
      }
    }
    const inA = { namespace: "a" };
    for (const mode of ["bm25", "hybrid", "embedding"] as const) {
      const results = await memory.recall("secret project note", { ...inA, mode, limit: 20 });
      expect(results.length).toBe(5);
      expect(results.every((entry) => entry.namespace === "a")).toBe(true);
    }
    expect(
      (await memory.recall("", { ...inA, limit: 20 })).every((entry) => entry.namespace === "a"),
    ).toBe(true);
    expect(
      (await memory.recall("note of", { ...inA, limit: 20 })).every(
        (entry) => entry.namespace === "a",
      ),
    ).toBe(true);
    expect(
      (await memory.list({ ...inA, limit: 100 })).every((entry) => entry.namespace === "a"),
    ).toBe(true);
    expect((await memory.get("k1", inA))!.content).toBe("secret project note 1 of a");
    expect(await memory.count(inA)).toBe(5);
    const exported = await collect(memory.export(inA));
    expect(exported.length).toBe(5);
    expect(exported.every((entry) => entry.namespace === "a")).toBe(true);
    expect((await memory.topCore(10, inA)).every((entry) => entry.namespace === "a")).toBe(true);
    expect(await memory.purgeSession("s", inA)).toBe(5);
    expect(await memory.count({ namespace: "b" })).toBe(5);
    await memory.store({ key: "k0", content: "back in a", namespace: "a" });
    expect(await memory.purgeNamespace("a")).toBe(1);
    expect(await memory.count({ namespace: "b" })).toBe(5);
    expect(keys(await memory.list({ namespace: "b" })).sort()).toEqual([
      "k0",
      "k1",
      "k2",
      "k3",
      "k4",
    ]);
  });

  it("keeps two schemas apart on one database", async () => {
    const a = create();
    const b = create();
    await a.store({ key: "k", content: "only in schema a" });
    expect(await b.get("k")).toBeNull();
    expect(await b.recall("schema", { mode: "bm25" })).toEqual([]);
  });
});

describe("postgres: deferred embedding", () => {
  it("stores at once, embeds in the background, and drops an embedding of stale content", async () => {
    const inner = createTestEmbedder();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const embedder = {
      ...inner,
      fingerprint: inner.fingerprint,
      dimensions: inner.dimensions,
      async embed(texts: readonly string[]) {
        await gate;
        return inner.embed(texts);
      },
      embedOne: (text: string) => inner.embedOne(text),
    };
    const memory = create({ embedder, settings: { defer_embedding: true } });
    await memory.store({ key: "car", content: "first text about a dog" });
    await memory.store({ key: "car", content: "My car needs new tyres" });
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(1);
    expect(keys(await memory.recall("tyres", { mode: "bm25" }))).toEqual(["car"]);
    release();
    await memory.flush();
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(0);
    const stored = await memory.get("car", { withEmbedding: true });
    const expected = await inner.embedOne("My car needs new tyres");
    for (const [i, value] of stored!.embedding!.entries())
      expect(value).toBeCloseTo(expected[i]!, 5);
    expect(keys(await memory.recall("automobile", { mode: "embedding", limit: 1 }))).toEqual([
      "car",
    ]);
  });

  it("drains deferred work on close", async () => {
    const embedder = createTestEmbedder();
    const schema = schemas.next();
    const memory = createPostgresMemory({
      connectionString: TEST_URL,
      schema,
      embedder,
      settings: { defer_embedding: true },
    });
    for (let i = 0; i < 20; i++)
      await memory.store({ key: `k${i}`, content: `deferred note ${i}` });
    await memory.close();
    const rows = await admin<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".memory_vectors`);
    expect(rows[0]!.n).toBe("20");
  });

  it("records the fingerprint and dimensions, and keeps the vector out of TOAST", async () => {
    const memory = create({ embedder: createTestEmbedder({ dimensions: 32 }) });
    await memory.store({ key: "k", content: "v" });
    const health = await memory.healthCheck();
    expect(health.vector).toMatchObject({ status: "ok", storedFingerprint: "test:hash-v1:32" });
    expect(health.details.dimensions).toBe(32);
    const storage = await admin<{ attstorage: string }>(
      `SELECT attstorage FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'embedding'`,
      [`"${memory.schema}".memory_vectors`],
    );
    expect(storage[0]!.attstorage).toBe("p");
    const error = await memory
      .store({ key: "x", content: "y", embedding: [1, 2] })
      .catch((caught) => caught);
    expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
  });
});

describe("postgres: bulk import", () => {
  it("keeps the last of a key repeated across batches written at once, and rebuilds the indexes", async () => {
    const memory = create({ embedder: createTestEmbedder() });
    const entries = Array.from({ length: 7000 }, (_, i) => ({
      key: `k${i}`,
      content: `entry number ${i} about gardening`,
      category: "core",
    }));
    // The same key in batches 1, 2 and 4 (2000 rows each): the later entry must win.
    for (const [position, version] of [
      [100, 1],
      [2500, 2],
      [6500, 3],
    ] as const) {
      entries[position] = {
        key: "dup",
        content: `repeated tulip version ${version}`,
        category: "core",
      };
    }
    const report = await memory.importEntries(entries);
    expect(report.rejected).toEqual([]);
    expect((await memory.get("dup"))?.content).toBe("repeated tulip version 3");
    expect(await memory.count()).toBe(7000 - 2);
    const indexes = await admin<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname",
      [memory.schema],
    );
    expect(indexes.map((row) => row.indexname)).toEqual(
      expect.arrayContaining(["memories_search", "memory_vectors_hnsw"]),
    );
    const [hit] = await memory.recall("tulip", { mode: "bm25", limit: 1 });
    expect(hit?.key).toBe("dup");
  });
});
