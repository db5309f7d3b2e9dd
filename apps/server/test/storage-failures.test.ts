import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteMemory } from "@memory/sqlite";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { startTestServer, TOKEN_ALL } from "./helpers.js";

const root = mkdtempSync(join(tmpdir(), "memory-server-storage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A SQLite store with a few entries, reopened with no room for one more page. */
async function fullStore() {
  const path = join(root, `${Math.random().toString(36).slice(2)}.db`);
  const setup = createSqliteMemory({ path });
  await setup.store({ key: "kept", content: "the lighthouse keeper's log" });
  await setup.close();
  const db = new Database(path);
  const pages = db.pragma("page_count", { simple: true }) as number;
  db.pragma(`max_page_count = ${pages}`);
  return { memory: createSqliteMemory({ database: db }), db, pages };
}

describe("a store that cannot be written", () => {
  it("answers writes 507 STORE_NOT_WRITABLE, reads 200, /readyz 503 with the reason; all recover", async () => {
    const { memory, db, pages } = await fullStore();
    const server = await startTestServer({ memory });
    const stored = await server.call("POST", "/v1/memories", {
      token: TOKEN_ALL,
      body: { key: "new", content: "x".repeat(100_000) },
    });
    expect(stored.status).toBe(507);
    expect(stored.body.error.code).toBe("STORE_NOT_WRITABLE");
    expect(stored.body.error.message).toMatch(/full/);

    const read = await server.call("POST", "/v1/memories/get", {
      token: TOKEN_ALL,
      body: { key: "kept" },
    });
    expect(read.status).toBe(200);
    const ready = await server.call("GET", "/readyz", { token: "" });
    expect(ready.status).toBe(503);
    expect(ready.body.reasons.join("\n")).toMatch(/cannot be written: .*size limit/);

    db.pragma(`max_page_count = ${pages + 10_000}`);
    expect((await server.call("GET", "/readyz", { token: "" })).status).toBe(200);
    const retried = await server.call("POST", "/v1/memories", {
      token: TOKEN_ALL,
      body: { key: "new", content: "fits now" },
    });
    expect(retried.status).toBeLessThan(300);
    await server.handle.close();
    db.close();
  });
});
