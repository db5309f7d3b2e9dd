import { createTestEmbedder, gatedEmbedder } from "@memory/testkit";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

// The deferred-embedding behaviour every backend shares (store before the vector, batches,
// backoff, resume after a restart, two instances draining) is the testkit's `deferredEmbedding`
// conformance group; this file keeps what only SQLite has: `closeTimeoutMs`.

const vectorCount = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM memory_vectors").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("deferred embeddings: close with a stuck provider", () => {
  it("close() stops a stuck drain within closeTimeoutMs and keeps the rows pending", async () => {
    const path = tempDbPath();
    const embedder = gatedEmbedder(createTestEmbedder({ dimensions: 16 }), true);
    const memory = createSqliteMemory({
      path,
      embedder: embedder.provider,
      deferEmbedding: true,
      closeTimeoutMs: 30,
      logger: () => {},
    });
    await memory.store({ key: "k", content: "never embedded" });
    await embedder.called(1);
    await memory.close();
    embedder.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(vectorCount(path)).toBe(0);
    // The row is still pending for the next process (the conformance group shows it resumed).
    const reopened = createSqliteMemory({ path, embedder: createTestEmbedder({ dimensions: 16 }) });
    expect((await reopened.healthCheck()).pendingEmbeddings).toBe(1);
    await reopened.close();
  });
});
