import { describe, expect, it } from "vitest";
import { VERSION } from "../src/index.js";
import { startTestServer } from "./helpers.js";

describe("HTTP API", () => {
  it("stores, gets and lists entries", async () => {
    const server = await startTestServer();
    const stored = await server.call("POST", "/v1/memories", {
      body: {
        key: "editor",
        content: "The user edits code in Neovim",
        category: "core",
        importance: 0.9,
      },
    });
    expect(stored.status).toBe(200);
    expect(stored.body.entry).toMatchObject({
      key: "editor",
      namespace: "default",
      category: "core",
      importance: 0.9,
    });

    const got = await server.call("GET", "/v1/memories/editor");
    expect(got.status).toBe(200);
    expect(got.body.entry.content).toBe("The user edits code in Neovim");
    expect(got.body.entry.score).toBeUndefined();

    await server.call("POST", "/v1/memories", {
      body: { key: "lunch", content: "Ramen", category: "daily" },
    });
    const listed = await server.call("GET", "/v1/memories?limit=10");
    expect(listed.body.entries.map((entry: { key: string }) => entry.key)).toEqual([
      "lunch",
      "editor",
    ]);
    const daily = await server.call("GET", "/v1/memories?categories=daily");
    expect(daily.body.entries.map((entry: { key: string }) => entry.key)).toEqual(["lunch"]);
    const paged = await server.call("GET", "/v1/memories?limit=1&offset=1");
    expect(paged.body.entries.map((entry: { key: string }) => entry.key)).toEqual(["editor"]);
  });

  it("keeps createdAt and changes content when a key is stored again", async () => {
    const server = await startTestServer();
    const first = await server.call("POST", "/v1/memories", { body: { key: "k", content: "one" } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "two" },
    });
    expect(second.body.entry.createdAt).toBe(first.body.entry.createdAt);
    expect(second.body.entry.id).toBe(first.body.entry.id);
    expect(second.body.entry.content).toBe("two");
  });

  it("answers 404 NOT_FOUND for a missing key", async () => {
    const server = await startTestServer();
    const response = await server.call("GET", "/v1/memories/nope");
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("NOT_FOUND");
    expect(response.body.error.message).toContain('"nope"');
  });

  it("handles keys with slashes, spaces and unicode in the path", async () => {
    const server = await startTestServer();
    const key = "notes/2026 é?#&";
    await server.call("POST", "/v1/memories", { body: { key, content: "odd key" } });
    const got = await server.call("GET", `/v1/memories/${encodeURIComponent(key)}`);
    expect(got.status).toBe(200);
    expect(got.body.entry.key).toBe(key);
    const forgot = await server.call("DELETE", `/v1/memories/${encodeURIComponent(key)}`);
    expect(forgot.body).toEqual({ deleted: true });
  });

  it("returns the embedding only when asked for", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", { body: { key: "v", content: "with vector" } });
    const plain = await server.call("GET", "/v1/memories/v");
    expect(plain.body.entry.embedding).toBeUndefined();
    const bad = await server.call("GET", "/v1/memories/v?withEmbedding=maybe");
    expect(bad.status).toBe(400);
  });

  it("recalls with the full options and explains each score", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", {
      body: { key: "editor", content: "The user edits code in Neovim" },
    });
    await server.call("POST", "/v1/memories", {
      body: {
        key: "tea",
        content: "The user drinks green tea",
        category: "daily",
        sessionId: "s1",
      },
    });
    const recall = await server.call("POST", "/v1/recall", {
      body: {
        query: "Neovim editor",
        limit: 3,
        mode: "bm25",
        includeSuperseded: false,
        categories: ["core"],
      },
    });
    expect(recall.status).toBe(200);
    expect(recall.body.results[0].key).toBe("editor");
    expect(recall.body.results[0].explain).toMatchObject({ mode: "bm25" });
    expect(typeof recall.body.results[0].score).toBe("number");

    const session = await server.call("POST", "/v1/recall", {
      body: { query: "", sessionId: "s1" },
    });
    expect(session.body.results.map((entry: { key: string }) => entry.key)).toEqual(["tea"]);
    const none = await server.call("POST", "/v1/recall", { body: { query: "tea", limit: 0 } });
    expect(none.body.results).toEqual([]);
  });

  it("passes the backend's typed errors through with their code", async () => {
    const server = await startTestServer();
    const badTime = await server.call("POST", "/v1/recall", {
      body: { query: "x", since: "yesterday" },
    });
    expect(badTime.status).toBe(400);
    expect(badTime.body.error.code).toBe("INVALID_INPUT");
    const badKey = await server.call("POST", "/v1/memories", { body: { key: "", content: "x" } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.code).toBe("INVALID_INPUT");
    const badCategory = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "x", category: "../etc" },
    });
    expect(badCategory.status).toBe(400);
  });

  it("forgets, counts and purges sessions and namespaces", async () => {
    const server = await startTestServer();
    for (let i = 0; i < 3; i++) {
      await server.call("POST", "/v1/memories", {
        body: { key: `s1-${i}`, content: `turn ${i}`, sessionId: "s1" },
      });
    }
    await server.call("POST", "/v1/memories", { body: { key: "keep", content: "kept" } });
    await server.call("POST", "/v1/memories", {
      body: { key: "other", content: "x", namespace: "other", sessionId: "s1" },
    });
    expect((await server.call("GET", "/v1/count")).body).toEqual({ count: 4 });
    expect((await server.call("GET", "/v1/count?sessionId=s1")).body).toEqual({ count: 3 });

    expect((await server.call("DELETE", "/v1/memories/keep")).body).toEqual({ deleted: true });
    expect((await server.call("DELETE", "/v1/memories/keep")).body).toEqual({ deleted: false });

    const purgedSession = await server.call("DELETE", "/v1/sessions/s1?namespace=default");
    expect(purgedSession.body).toEqual({ deleted: 3 });
    expect((await server.call("GET", "/v1/count?namespace=other")).body).toEqual({ count: 1 });

    const purgedEverywhere = await server.call("DELETE", "/v1/sessions/s1");
    expect(purgedEverywhere.body).toEqual({ deleted: 1 });

    await server.call("POST", "/v1/memories", {
      body: { key: "x", content: "x", namespace: "gone" },
    });
    expect((await server.call("DELETE", "/v1/namespaces/gone")).body).toEqual({ deleted: 1 });
    expect((await server.call("GET", "/v1/count?namespace=gone")).body).toEqual({ count: 0 });
  });

  it("returns top core entries and marks entries superseded", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", {
      body: { key: "old", content: "Lives in Paris", importance: 0.5 },
    });
    await server.call("POST", "/v1/memories", {
      body: { key: "new", content: "Lives in Rome", importance: 0.9 },
    });
    const core = await server.call("GET", "/v1/core?limit=1");
    expect(core.body.entries.map((entry: { key: string }) => entry.key)).toEqual(["new"]);
    const superseded = await server.call("POST", "/v1/supersede", {
      body: { oldKey: "old", newKey: "new" },
    });
    expect(superseded.body).toMatchObject({
      superseded: true,
      entry: { key: "old", supersededBy: "new" },
      replacedBy: { key: "new" },
    });
    expect((await server.call("GET", "/v1/count")).body.count).toBe(1);
    expect((await server.call("GET", "/v1/count?includeSuperseded=true")).body.count).toBe(2);
    const old = await server.call("GET", "/v1/memories/old");
    expect(old.body.entry.supersededBy).toBe("new");
  });

  it("exports NDJSON and imports it back into another server", async () => {
    const source = await startTestServer();
    for (let i = 0; i < 250; i++) {
      await source.call("POST", "/v1/memories", {
        body: { key: `k${i}`, content: `entry number ${i}`, namespace: i % 2 ? "a" : "b" },
      });
    }
    const exported = await fetch(`${source.url}/v1/export`, {
      headers: { authorization: "Bearer token-all-namespaces-0123456789" },
    });
    expect(exported.headers.get("content-type")).toContain("application/x-ndjson");
    const text = await exported.text();
    const lines = text.trim().split("\n");
    expect(lines).toHaveLength(250);
    expect(JSON.parse(lines[0]!).key).toBe("k0");

    const onlyA = await source.call("GET", "/v1/export?namespace=a");
    expect((onlyA.body as string).trim().split("\n")).toHaveLength(125);

    const target = await startTestServer();
    const imported = await target.call("POST", "/v1/import", {
      raw: text,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ imported: 250, rejected: [] });
    expect((await target.call("GET", "/v1/count?namespace=a")).body.count).toBe(125);
    const copy = await target.call("GET", "/v1/memories/k1?namespace=a");
    expect(copy.body.entry.createdAt).toBe(JSON.parse(lines[1]!).createdAt);
  });

  it("carries the decision records through NDJSON export and import", async () => {
    const source = await startTestServer();
    for (const [key, content] of [
      ["diet-1", "The user is vegetarian"],
      ["diet-2", "The user is not vegetarian"],
    ]) {
      await source.call("POST", "/v1/memories", { body: { key, content } });
    }
    const exported = await source.call("GET", "/v1/export?namespace=default");
    const target = await startTestServer();
    const imported = await target.call("POST", "/v1/import", {
      raw: exported.body as string,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(imported.body).toEqual({ imported: 2, rejected: [] });
    for (const key of ["diet-1", "diet-2"]) {
      const before = (await source.call("GET", `/v1/memories/${key}`)).body.entry;
      const after = (await target.call("GET", `/v1/memories/${key}`)).body.entry;
      expect(after.supersessionRecord).toEqual(before.supersessionRecord);
      expect(after.conflictRecord).toEqual(before.conflictRecord);
    }
    const old = (await target.call("GET", "/v1/memories/diet-1")).body.entry;
    expect(old.supersessionRecord).toMatchObject({ by: "diet-2", rule: "negated" });
    // A record that is not one: that line is rejected with the reason, the rest imported.
    const bad = await target.call("POST", "/v1/import", {
      raw: `${JSON.stringify({ key: "x", content: "The user lives in Oslo", supersededBy: "y", supersessionRecord: { by: 3 } })}\n`,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(bad.body.imported).toBe(0);
    expect(JSON.stringify(bad.body.rejected)).toMatch(/by/);
  });

  it("gets and forgets any stored key through the body forms, dot-only keys included", async () => {
    const server = await startTestServer();
    for (const key of ["..", ".", "a/b", "x?y#z"]) {
      expect(
        (await server.call("POST", "/v1/memories", { body: { key, content: `about ${key}` } }))
          .status,
      ).toBe(200);
      const got = await server.call("POST", "/v1/memories/get", { body: { key } });
      expect(got.status, key).toBe(200);
      expect(got.body.entry).toMatchObject({ key, content: `about ${key}` });
      const forgot = await server.call("POST", "/v1/memories/forget", { body: { key } });
      expect(forgot.body, key).toEqual({ deleted: true });
      const gone = await server.call("POST", "/v1/memories/get", { body: { key } });
      expect(gone.status, key).toBe(404);
    }
  });

  it("refuses an export with an invalid filter with 400 before streaming anything", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", { body: { key: "k", content: "kept" } });
    for (const query of [
      "since=yesterday",
      "since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z",
    ]) {
      const response = await server.call("GET", `/v1/export?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toMatchObject({ error: { code: "INVALID_INPUT" } });
    }
    expect((await server.call("GET", "/v1/export")).status).toBe(200);
  });

  it("imports a streamed body and reports bad lines by position without stopping", async () => {
    const server = await startTestServer();
    const lines = [
      JSON.stringify({ key: "one", content: "first" }),
      "{not json",
      "",
      JSON.stringify({ key: "two" }),
      JSON.stringify({ key: "", content: "empty key" }),
      JSON.stringify({ key: "three", content: "third", category: "daily" }),
    ];
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // Split mid-line to prove lines are reassembled across chunks.
        const all = encoder.encode(lines.join("\n"));
        controller.enqueue(all.slice(0, 10));
        controller.enqueue(all.slice(10));
        controller.close();
      },
    });
    const response = await fetch(`${server.url}/v1/import`, {
      method: "POST",
      body,
      headers: { authorization: "Bearer token-all-namespaces-0123456789" },
      duplex: "half",
    } as RequestInit);
    const report = (await response.json()) as {
      imported: number;
      rejected: { index: number; code: string }[];
    };
    expect(response.status).toBe(200);
    expect(report.imported).toBe(2);
    expect(report.rejected.map((rejection) => [rejection.index, rejection.code])).toEqual([
      [1, "INVALID_INPUT"],
      [2, "INVALID_INPUT"],
      [3, "INVALID_INPUT"],
    ]);
    expect((await server.call("GET", "/v1/count")).body.count).toBe(2);
  });

  it("builds the memory context for a message", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", {
      body: { key: "editor", content: "The user edits code in Neovim" },
    });
    const context = await server.call("POST", "/v1/context", {
      body: { message: "which editor?", minScore: 0 },
    });
    expect(context.status).toBe(200);
    expect(context.body.context.startsWith("[Memory context]\n")).toBe(true);
    expect(context.body.context).toContain("editor: The user edits code in Neovim");
    expect(context.body.entries).toHaveLength(1);
    expect(context.body.truncated).toBe(false);
  });

  it("autosaves a turn and skips filtered lines", async () => {
    const server = await startTestServer();
    const saved = await server.call("POST", "/v1/autosave", {
      body: {
        userMessage: "I always deploy on Fridays",
        assistantReply: "Noted. ".repeat(40),
        sessionId: "s9",
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.stored.map((entry: { category: string }) => entry.category)).toEqual([
      "conversation",
      "daily",
    ]);
    expect(saved.body.stored[1].content.length).toBe(100);
    const skipped = await server.call("POST", "/v1/autosave", {
      body: { userMessage: "[heartbeat] ok" },
    });
    expect(skipped.body.stored).toEqual([]);
    expect(skipped.body.skipped).toEqual([
      { part: "user", reason: "filtered" },
      { part: "assistant", reason: "empty" },
    ]);
    expect((await server.call("GET", "/v1/count?sessionId=s9")).body.count).toBe(2);
  });

  it("serves /healthz and /readyz with the version, without a token", async () => {
    const server = await startTestServer();
    const health = await server.call("GET", "/healthz", { token: "" });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ok", version: VERSION });
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
    const ready = await server.call("GET", "/readyz", { token: "" });
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: "ready",
      version: VERSION,
      backend: "memory",
      reasons: [],
    });
    expect(ready.body.vector.status).toBe("disabled");
  });

  it("reports not ready once the backend is closed", async () => {
    const server = await startTestServer();
    await server.memory.close();
    const ready = await server.call("GET", "/readyz", { token: "" });
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe("not_ready");
    const store = await server.call("POST", "/v1/memories", { body: { key: "k", content: "x" } });
    expect(store.status).toBe(503);
    expect(store.body.error.code).toBe("BACKEND_UNAVAILABLE");
  });

  it("answers unknown routes with 404 in the error shape", async () => {
    const server = await startTestServer();
    const response = await server.call("GET", "/v1/nothing");
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("NOT_FOUND");
  });
});

describe("embeddings on the wire", () => {
  it("sends embeddings only when asked for, whatever the backend returns", async () => {
    const { createInMemoryMemory, createTestEmbedder } = await import("@memory/testkit");
    const server = await startTestServer({
      memory: createInMemoryMemory({ embedder: createTestEmbedder() }),
    });
    await server.call("POST", "/v1/memories", {
      body: { key: "car", content: "The user drives a blue car" },
    });
    const plain = await server.call("POST", "/v1/recall", { body: { query: "automobile" } });
    expect(plain.body.results[0].key).toBe("car");
    expect(plain.body.results[0].embedding).toBeUndefined();
    const asked = await server.call("POST", "/v1/recall", {
      body: { query: "automobile", withEmbeddings: true },
    });
    expect(asked.body.results[0].embedding).toHaveLength(64);
    const got = await server.call("GET", "/v1/memories/car?withEmbedding=true");
    expect(got.body.entry.embedding).toHaveLength(64);
    const listed = await server.call("GET", "/v1/memories?withEmbeddings=1");
    expect(listed.body.entries[0].embedding).toHaveLength(64);
  });
});
