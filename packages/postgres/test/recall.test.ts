import { type ImportEntry, type Memory, type MemoryEntry, MemoryError } from "@memory/api";
import { createInMemoryMemory, createTestEmbedder } from "@memory/testkit";
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

/** What a recall answered, in order: keys, scores and every part of explain. */
const answer = (entries: readonly MemoryEntry[]) =>
  entries.map((entry) => [entry.key, entry.score, entry.explain!] as const);

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
  "Coffee, coffee and more coffee: the morning ritual",
  "Meetings about the car insurance renewal",
  "私は記憶力が良いです",
];

const corpusEntries = (namespace?: string): ImportEntry[] =>
  CORPUS.map((content, i) => ({
    key: `k${i}`,
    content,
    category: "core",
    ...(namespace === undefined ? {} : { namespace }),
  }));

const QUERIES = [
  "car coffee",
  "coffee",
  "the morning coffee ritual",
  "dog park morning",
  "meeting",
  "automob*",
  "記憶",
  "blue door office",
];

describe("postgres: recall on the shared engine", () => {
  it("gives the reference backend's keyword results: same entries, BM25 and scores", async () => {
    const memory = create();
    const reference = createInMemoryMemory();
    await memory.importEntries(corpusEntries());
    await reference.importEntries(corpusEntries());
    for (const query of QUERIES) {
      const options = { mode: "bm25", limit: 50, minScore: 0 } as const;
      const expected = await reference.recall(query, options);
      expect(expected.length, query).toBeGreaterThan(0);
      // Bit-identical: the same terms and namespace statistics give the same BM25 in JavaScript.
      expect(answer(await memory.recall(query, options)), query).toEqual(answer(expected));
    }
    await reference.close();
  });

  it("gives the reference backend's hybrid results (pgvector's cosines agree to 1e-6)", async () => {
    const embedder = createTestEmbedder();
    const memory = create({ embedder });
    const reference = createInMemoryMemory({ embedder });
    await memory.importEntries(corpusEntries());
    await reference.importEntries(corpusEntries());
    for (const query of QUERIES) {
      const options = { mode: "hybrid", limit: 50, minScore: 0 } as const;
      const expected = await reference.recall(query, options);
      const got = await memory.recall(query, options);
      expect(keys(got).sort(), query).toEqual(keys(expected).sort());
      const wanted = new Map(expected.map((entry) => [entry.key, entry.explain!]));
      for (const entry of got) {
        // pgvector computes in float4: cosines tied in double may differ in the 8th digit, so
        // vector ranks among ties (and only they) can differ.
        const { cosine, vectorRelevance, fused, vectorRank, ...exact } = entry.explain!;
        const {
          cosine: c,
          vectorRelevance: v,
          fused: f,
          vectorRank: r,
          ...same
        } = wanted.get(entry.key)!;
        expect(exact, `${query} ${entry.key}`).toEqual(same);
        expect(vectorRank === undefined, query).toBe(r === undefined);
        expect(cosine!, query).toBeCloseTo(c!, 6);
        expect(vectorRelevance!, query).toBeCloseTo(v!, 6);
        expect(fused, query).toBeCloseTo(f, 6);
      }
      // The same order wherever relevances are not tied.
      for (let i = 1; i < got.length; i++) {
        const [a, b] = [wanted.get(got[i - 1]!.key)!.fused, wanted.get(got[i]!.key)!.fused];
        expect(a, `${query}: ${keys(got)}`).toBeGreaterThan(b - 1e-6);
      }
    }
    await reference.close();
  });

  it("keeps a namespace's scores when other namespaces fill up with the query's words", async () => {
    const memory = create({ embedder: createTestEmbedder() });
    await memory.importEntries(corpusEntries("a"));
    const queries = ["car coffee", "coffee", "dog park morning", "automob*", "記憶"];
    const run = async () => {
      const answers = [];
      for (const query of queries) {
        for (const mode of ["bm25", "hybrid"] as const) {
          // Results of relevance 0 are left out: which of those zero-cosine ties HNSW walks
          // into the vector pool depends on the whole graph, every namespace included.
          const results = await memory.recall(query, { namespace: "a", mode, minScore: 0 });
          // Vector ranks among zero-cosine ties are HNSW's walk order: compare everything else.
          answers.push(
            answer(results.filter((entry) => entry.explain!.fused > 0)).map(
              ([key, score, { vectorRank: _rank, ...explain }]) => [key, score, explain],
            ),
          );
        }
      }
      return answers;
    };
    const before = await run();
    // Many entries made of the query words, in another namespace, by every write path.
    await memory.importEntries(
      Array.from({ length: 2500 }, (_, i) => ({
        key: `b${i}`,
        namespace: "b",
        content: `coffee car dog park morning automobile 記憶 ${i % 7 === 0 ? "coffee coffee" : ""}`,
      })),
    );
    for (let i = 0; i < 20; i++)
      await memory.store({ key: `s${i}`, namespace: "b", content: "car coffee coffee morning" });
    await memory.forget("b3", { namespace: "b" });
    expect(await run()).toEqual(before);
    // The other namespace really holds the words (its statistics differ from a's).
    const [inB] = await memory.recall("coffee", { namespace: "b", mode: "bm25", minScore: 0 });
    const [inA] = await memory.recall("coffee", { namespace: "a", mode: "bm25", minScore: 0 });
    expect(inB!.explain!.keywordScore).not.toBe(inA!.explain!.keywordScore);
  });

  it("returns early only when keyword hits fill the limit and are decisive, and says so", async () => {
    const memory = create({ embedder: createTestEmbedder(), ftsEarlyReturnScore: 0.5 });
    await memory.store({ key: "zebra", content: "zebra zebra zebra stripes zebra" });
    await memory.store({ key: "other", content: "a horse in a field" });
    const [top] = await memory.recall("zebra", { mode: "hybrid", limit: 1 });
    expect(top!.key).toBe("zebra");
    expect(top!.explain).toMatchObject({ source: "keyword", earlyReturn: true });
    const full = await memory.recall("zebra", { mode: "hybrid", limit: 5 });
    expect(full[0]!.explain!.source).toBe("hybrid");
  });

  it("degrades to keywords when the provider returns a vector of the wrong size", async () => {
    const inner = createTestEmbedder();
    const memory = create({ embedder: inner });
    await memory.store({ key: "car", content: "My car needs new tyres" });
    const broken = create({
      schema: memory.schema,
      embedder: {
        ...inner,
        name: inner.name,
        model: inner.model,
        fingerprint: inner.fingerprint,
        dimensions: inner.dimensions,
        embed: (texts) => inner.embed(texts),
        embedOne: async () => [1, 2, 3],
      },
    });
    const [hit] = await broken.recall("car tyres", { mode: "hybrid" });
    expect(hit!.key).toBe("car");
    expect(hit!.explain!.source).toBe("keyword");
    expect(hit!.explain!.degraded).toMatch(/provider failed.*dimensions/);
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
    "x".repeat(3000),
    `${"y".repeat(3000)}*`,
  ];

  it("answers every tsquery/LIKE metacharacter query with results, never an error", async () => {
    const memory = create({ embedder: createTestEmbedder() });
    await memory.store({ key: "plain", content: "alpha and beta and gamma" });
    await memory.store({ key: "ops", content: "operators alpha & beta | !gamma <-> delta:*" });
    for (const query of hostile) {
      for (const mode of ["bm25", "hybrid", "embedding"] as const) {
        const results = await memory.recall(query, { mode, limit: 5 });
        expect(Array.isArray(results), query).toBe(true);
      }
    }
    // The operators are plain words: "alpha & beta" finds entries with either, no parse error.
    expect(keys(await memory.recall("alpha & beta", { mode: "bm25", limit: 5 })).sort()).toEqual([
      "ops",
      "plain",
    ]);
    expect(keys(await memory.recall("'delta':*", { mode: "bm25", limit: 5 }))).toEqual(["ops"]);
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
    // "e_n" is inside a word, so only the LIKE fallback can find it; unescaped, "_" would
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
    const bm25 = { mode: "bm25", minScore: 0 } as const;
    expect(keys(await memory.recall("記憶", bm25)).sort()).toEqual(["ja", "mixed"]);
    expect(keys(await memory.recall("記憶力", bm25))[0]).toBe("ja");
    expect(keys(await memory.recall("乌龙茶", bm25))).toEqual(["zh"]);
    expect(keys(await memory.recall("커피", bm25))).toEqual(["ko"]);
    expect(keys(await memory.recall("ai", bm25))).toEqual(["mixed"]);
    const hybrid = await memory.recall("绿茶", { mode: "hybrid", minScore: 0 });
    const zh = hybrid.find((entry) => entry.key === "zh");
    expect(zh!.explain).toMatchObject({ source: "hybrid", keywordRank: 0 });
    expect(hybrid.filter((entry) => entry.explain!.keywordRank !== undefined)).toHaveLength(1);
  });

  it("keeps the index of a huge entry within tsvector limits", async () => {
    const memory = create();
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`).join(" ");
    await memory.store({ key: "huge", content: `needle ${words}` });
    expect(keys(await memory.recall("needle", { mode: "bm25", minScore: 0 }))).toEqual(["huge"]);
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
    const inA = { namespace: "a", minScore: 0 };
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
      (await memory.list({ namespace: "a", limit: 100 })).every((entry) => entry.namespace === "a"),
    ).toBe(true);
    expect((await memory.get("k1", { namespace: "a" }))!.content).toBe(
      "secret project note 1 of a",
    );
    expect(await memory.count({ namespace: "a" })).toBe(5);
    const exported = await collect(memory.export({ namespace: "a" }));
    expect(exported.length).toBe(5);
    expect(exported.every((entry) => entry.namespace === "a")).toBe(true);
    expect(
      (await memory.topCore(10, { namespace: "a" })).every((entry) => entry.namespace === "a"),
    ).toBe(true);
    expect(await memory.purgeSession("s", { namespace: "a" })).toBe(5);
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
    const memory = create({ embedder, deferEmbedding: true });
    await memory.store({ key: "car", content: "first text about a dog" });
    await memory.store({ key: "car", content: "My car needs new tyres" });
    // The entry, and the version it keeps of the first text (not embedded yet either).
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(2);
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
      deferEmbedding: true,
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

describe("postgres: bulk load", () => {
  it("builds the indexes of empty tables once: absent while a large import runs, present after", async () => {
    const memory = create({ embedder: createTestEmbedder() });
    const indexes = async () =>
      (
        await admin<{ indexname: string }>(
          "SELECT indexname FROM pg_indexes WHERE schemaname = $1",
          [memory.schema],
        )
      ).map((row) => row.indexname);
    await memory.init();
    expect(await indexes()).toEqual(
      expect.arrayContaining(["memories_search", "memory_vectors_hnsw"]),
    );
    const during: string[][] = [];
    async function* entries(): AsyncGenerator<ImportEntry> {
      for (let i = 0; i < 6000; i++) {
        // Asked for once the first batch (5,000 entries) is committed.
        if (i === 5500) during.push(await indexes());
        yield { key: `k${i}`, content: `bulk entry ${i} about orchards` };
      }
    }
    const report = await memory.importEntries(entries());
    expect(report).toEqual({ imported: 6000, rejected: [] });
    expect(during[0]).not.toContain("memories_search");
    expect(during[0]).not.toContain("memory_vectors_hnsw");
    expect(await indexes()).toEqual(
      expect.arrayContaining(["memories_search", "memory_vectors_hnsw"]),
    );
    expect((await memory.recall("orchards 5999", { mode: "hybrid", limit: 1 }))[0]?.key).toBe(
      "k5999",
    );
  });

  it("keeps the indexes of a table that already holds entries", async () => {
    const memory = create();
    await memory.store({ key: "first", content: "already here" });
    let during: string[] = [];
    async function* entries(): AsyncGenerator<ImportEntry> {
      for (let i = 0; i < 5500; i++) {
        if (i === 5200)
          during = (
            await admin<{ indexname: string }>(
              "SELECT indexname FROM pg_indexes WHERE schemaname = $1",
              [memory.schema],
            )
          ).map((row) => row.indexname);
        yield { key: `k${i}`, content: `entry ${i}` };
      }
    }
    await memory.importEntries(entries());
    expect(during).toContain("memories_search");
  });
});

describe("postgres: options", () => {
  it("takes the retrieval options of @memory/api and rejects the old settings object", async () => {
    const memory = create({ searchMode: "bm25", minScore: 0 });
    await memory.store({ key: "k", content: "configured option" });
    const [hit] = await memory.recall("option");
    expect(hit!.explain!.mode).toBe("bm25");
    expect(() => create({ minScore: 2 })).toThrow(/minScore/);
    expect(() =>
      create({ settings: { search_mode: "bm25" } } as unknown as PostgresMemoryOptions),
    ).toThrow(/settings/);
    // Deprecated, accepted and ignored.
    const legacy: Memory = create({ hybridExecution: "single" });
    expect(await legacy.count()).toBe(0);
  });
});
