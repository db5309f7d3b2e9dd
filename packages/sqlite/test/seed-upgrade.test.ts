import { createTestEmbedder } from "@memory/testkit";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const DIMS = 16;

/** The seed's original schema, as its Rust code created it (before namespaces existed). */
function buildSeedDatabase(path: string, vectorFor: (text: string) => number[]): void {
  const db = new Database(path);
  db.exec(`
    CREATE TABLE memories (id TEXT PRIMARY KEY, key TEXT UNIQUE NOT NULL, content TEXT NOT NULL,
      category TEXT NOT NULL DEFAULT 'core', embedding BLOB, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
      session_id TEXT);
    CREATE INDEX idx_memories_category ON memories(category);
    CREATE VIRTUAL TABLE memories_fts USING fts5(key, content, content=memories, content_rowid=rowid);
    CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
      INSERT INTO memories_fts(rowid, key, content) VALUES (new.rowid, new.key, new.content);
    END;
    CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
      INSERT INTO memories_fts(memories_fts, rowid, key, content) VALUES ('delete', old.rowid, old.key, old.content);
    END;
    CREATE TABLE embedding_cache (content_hash TEXT PRIMARY KEY, embedding BLOB NOT NULL, created_at TEXT NOT NULL, accessed_at TEXT NOT NULL);
  `);
  const insert = db.prepare(
    "INSERT INTO memories (id, key, content, category, embedding, created_at, updated_at, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const rows = [
    ["k1", "The user prefers dark roast coffee", "core", "2025-01-02T03:04:05+00:00", null],
    ["k2", "Meeting with Alice about the migration plan", "daily", "2025-02-01T10:00:00Z", "s1"],
    ["k3", "私は記憶力が良い", "core", "2025-03-01T00:00:00.5Z", null],
    ["k4", "no embedding for this one", "conversation", "2025-03-02T00:00:00Z", "s2"],
  ] as const;
  rows.forEach(([key, content, category, time, session], index) => {
    const blob = key === "k4" ? null : Buffer.from(Float32Array.from(vectorFor(content)).buffer);
    insert.run(
      `00000000-0000-4000-8000-00000000000${index}`,
      key,
      content,
      category,
      blob,
      time,
      time,
      session,
    );
  });
  const cache = db.prepare("INSERT INTO embedding_cache VALUES (?, ?, ?, ?)");
  cache.run(
    "aaaaaaaaaaaaaaaa",
    Buffer.from(new Float32Array(DIMS).buffer),
    "2025-01-01T00:00:00Z",
    "2025-01-01T00:00:00Z",
  );
  cache.run(
    "bbbbbbbbbbbbbbbb",
    Buffer.from(new Float32Array(DIMS).buffer),
    "2025-01-01T00:00:00Z",
    "2025-01-02T00:00:00Z",
  );
  db.close();
}

describe("seed schema upgrade", () => {
  it("upgrades the seed's database in place, keeping every row, embedding and cache row", async () => {
    const path = tempDbPath();
    const embedder = createTestEmbedder({ dimensions: DIMS });
    const vectors = new Map<string, number[]>();
    buildSeedDatabase(path, (text) => {
      // Same vector space as the embedder, computed synchronously through a tiny trick: reuse it below.
      const vector = Array.from({ length: DIMS }, (_, i) => Math.sin(i + text.length));
      vectors.set(text, vector);
      return vector;
    });

    const memory = createSqliteMemory({ path, embedder, logger: () => {} });
    expect(await memory.count()).toBe(4);
    const k1 = await memory.get("k1", { withEmbedding: true });
    expect(k1).toMatchObject({
      id: "00000000-0000-4000-8000-000000000000",
      content: "The user prefers dark roast coffee",
      category: "core",
      namespace: "default",
      createdAt: "2025-01-02T03:04:05.000Z",
    });
    const expected = Float32Array.from(vectors.get("The user prefers dark roast coffee")!);
    expect(k1!.embedding).toEqual(Array.from(expected));
    expect((await memory.get("k2"))!.sessionId).toBe("s1");
    expect((await memory.get("k4"))!.embedding).toBeUndefined();

    // Keyword recall through the rebuilt FTS index, CJK included (minScore 0: the 2025 daily
    // entry has long decayed below the default threshold).
    expect((await memory.recall("migration plan", { mode: "bm25", minScore: 0 }))[0]!.key).toBe(
      "k2",
    );
    expect((await memory.recall("記憶", { mode: "bm25" }))[0]!.key).toBe("k3");
    // The seed's vectors (same dimensions) are adopted; the one missing vector is pending.
    const health = await memory.healthCheck();
    expect(health.vector.status).toBe("ok");
    expect(health.pendingEmbeddings).toBe(1);
    expect((await memory.backfillEmbeddings()).embedded).toBe(1);
    expect(
      (await memory.recall("anything", { mode: "embedding", limit: 10, minScore: 0 })).length,
    ).toBe(4);
    await memory.close();

    const raw = new Database(path, { readonly: true });
    const cacheRows = raw
      .prepare("SELECT content_hash, fingerprint FROM embedding_cache ORDER BY access_seq")
      .all();
    expect(cacheRows).toEqual([
      { content_hash: "aaaaaaaaaaaaaaaa", fingerprint: "legacy" },
      { content_hash: "bbbbbbbbbbbbbbbb", fingerprint: "legacy" },
      ...cacheRows.slice(2),
    ]);
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%seed%'").all()).toEqual(
      [],
    );
    raw.close();

    // Opening again runs the migrations again: nothing changes.
    const again = createSqliteMemory({ path, embedder, logger: () => {} });
    expect(await again.count()).toBe(4);
    await again.close();
  });
});
