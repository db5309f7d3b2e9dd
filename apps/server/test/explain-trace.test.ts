import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSqliteMemory } from "@memory/sqlite";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { ContextResponseSchema, RecallResponseSchema } from "../src/schemas.js";
import { startTestServer, TOKEN_A, TOKEN_ALL } from "./helpers.js";

const clients: Client[] = [];
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const directory of directories.splice(0))
    fs.rmSync(directory, { recursive: true, force: true });
});

/** A real server over a real SQLite file. */
async function sqliteServer() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "memory-explain-"));
  directories.push(directory);
  const memory = createSqliteMemory({ path: path.join(directory, "brain.db") });
  return startTestServer({ memory });
}

type Candidate = { key: string; kept: boolean; reason?: string; detail?: string };
const verdict = (candidates: Candidate[], key: string) =>
  candidates.find((candidate) => candidate.key === key);

describe('POST /v1/recall with explain: "full"', () => {
  it("returns the results and the trace: superseded, filtered and the settings as numbers", async () => {
    const server = await sqliteServer();
    for (const body of [
      { key: "city-1", content: "lives in Berlin", category: "core" },
      { key: "city-2", content: "moved to Lisbon from Berlin", category: "core" },
      { key: "trip", content: "a weekend trip to Berlin", category: "daily" },
    ])
      expect((await server.call("POST", "/v1/memories", { body })).status).toBe(200);
    await server.call("POST", "/v1/supersede", { body: { oldKey: "city-1", newKey: "city-2" } });
    const plain = await server.call("POST", "/v1/recall", {
      body: { query: "berlin", categories: ["core"], mode: "bm25" },
    });
    const traced = await server.call("POST", "/v1/recall", {
      body: { query: "berlin", categories: ["core"], mode: "bm25", explain: "full", key: "trip" },
    });
    expect(traced.status).toBe(200);
    expect(RecallResponseSchema.parse(traced.body)).toEqual(traced.body);
    expect(plain.body.trace).toBeUndefined();
    const keys = (entries: { key: string }[]) => entries.map((entry) => entry.key);
    expect(keys(traced.body.results)).toEqual(keys(plain.body.results));
    expect(keys(traced.body.results)).toEqual(["city-2"]);
    const { candidates, settings, focus } = traced.body.trace;
    expect(verdict(candidates, "city-1")).toMatchObject({ kept: false, reason: "superseded" });
    expect(verdict(candidates, "city-1")?.detail).toContain('"city-2"');
    expect(verdict(candidates, "trip")).toMatchObject({ kept: false, reason: "filtered" });
    expect(settings).toMatchObject({ mode: "bm25", limit: 5, minScore: 0.3 });
    expect(settings.halfLifeDays).toEqual(expect.any(Number));
    expect(focus.verdict).toContain('"trip" is a candidate but dropped, filtered out');
  });

  it("refuses key without explain, and keeps a token to its namespaces", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", {
      body: { key: "x", content: "alpha", namespace: "a" },
    });
    await server.call("POST", "/v1/memories", {
      body: { key: "y", content: "alpha", namespace: "b" },
    });
    const lonely = await server.call("POST", "/v1/recall", { body: { query: "alpha", key: "x" } });
    expect(lonely.status).toBe(400);
    expect(lonely.body.error.message).toContain('add explain: "full"');
    const foreign = await server.call("POST", "/v1/recall", {
      body: { query: "alpha", namespace: "b", explain: "full" },
      token: TOKEN_A,
    });
    expect(foreign.status).toBe(403);
    const own = await server.call("POST", "/v1/recall", {
      body: { query: "alpha", namespace: "a", explain: "full", minScore: 0 },
      token: TOKEN_A,
    });
    expect(own.status).toBe(200);
    expect(own.body.trace.candidates.map((c: { namespace: string }) => c.namespace)).toEqual(["a"]);
  });
});

describe('POST /v1/context with explain: "full"', () => {
  it("names the question turn and the contentless reply it left out", async () => {
    const server = await sqliteServer();
    for (const body of [
      { key: "deploy", content: "The deploy key is kept in the vault under ops/deploy" },
      {
        key: "asked",
        content: "User: Where is the deploy key kept in the vault?",
        category: "conversation",
      },
      {
        key: "daily_2026-11-27T10:00:00.000Z_0b7c",
        content: "Sure, the deploy key, noted!",
        category: "daily",
      },
    ])
      await server.call("POST", "/v1/memories", { body });
    const built = await server.call("POST", "/v1/context", {
      body: { message: "deploy key vault", minScore: 0, explain: "full" },
    });
    expect(built.status).toBe(200);
    expect(ContextResponseSchema.parse(built.body)).toEqual(built.body);
    const { candidates, recalls } = built.body.trace;
    expect(verdict(candidates, "deploy")).toMatchObject({ kept: true });
    expect(verdict(candidates, "asked")).toMatchObject({ kept: false, reason: "question" });
    expect(verdict(candidates, "daily_2026-11-27T10:00:00.000Z_0b7c")).toMatchObject({
      kept: false,
      reason: "contentless",
    });
    expect(recalls[0].purpose).toBe("message");
    const plain = await server.call("POST", "/v1/context", {
      body: { message: "deploy key vault", minScore: 0 },
    });
    expect(plain.body.context).toBe(built.body.context);
    expect(plain.body.trace).toBeUndefined();
  });
});

describe('MCP memory_recall and memory_context with explain: "full"', () => {
  it("answer with a why-not section and the trace in the structured result", async () => {
    const server = await startTestServer();
    await server.memory.store({ key: "city-1", content: "lives in Berlin" });
    await server.memory.store({ key: "city-2", content: "moved to Lisbon from Berlin" });
    await server.memory.markSuperseded("city-1", "city-2");
    const client = new Client({ name: "memory-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN_ALL}` } },
      }),
    );
    clients.push(client);
    const recalled = await client.callTool({
      name: "memory_recall",
      arguments: { query: "berlin", explain: "full", key: "city-1" },
    });
    expect(recalled.isError).toBeFalsy();
    const text = (recalled.content as { text: string }[])[0]!.text;
    expect(text).toContain("Why not:\n- city-1: superseded");
    expect(text).toContain('"city-1" is a candidate but dropped, superseded');
    const structured = recalled.structuredContent as { trace: { candidates: Candidate[] } };
    expect(verdict(structured.trace.candidates, "city-1")?.reason).toBe("superseded");
    const context = await client.callTool({
      name: "memory_context",
      arguments: { message: "berlin", explain: "full" },
    });
    expect(context.isError).toBeFalsy();
    const contextText = (context.content as { text: string }[])[0]!.text;
    expect(contextText).toContain("Why not:");
    expect((context.structuredContent as { trace: { message: string } }).trace.message).toBe(
      "berlin",
    );
  });
});
