import { describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A } from "./helpers.js";
import { connect, httpTransport, type Structured, textOf } from "./mcp-clients.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
const store = (server: Server, key: string, content: string, namespace = "default") =>
  server.call("POST", "/v1/memories", { body: { key, content, namespace } });

describe("HTTP: relations", () => {
  it("relates, lists in the path and body forms, and unrelates", async () => {
    const server = await startTestServer();
    await store(server, "rain", "It rained all morning");
    await store(server, "late", "The user was late to work");
    const related = await server.call("POST", "/v1/relations", {
      body: { from: "rain", to: "late", type: "causes", weight: 0.6, metadata: { why: "traffic" } },
    });
    expect(related.status).toBe(200);
    expect(related.body.relation).toMatchObject({
      namespace: "default",
      from: "rain",
      to: "late",
      type: "causes",
      weight: 0.6,
      metadata: { why: "traffic" },
    });
    const stronger = await server.call("POST", "/v1/relations", {
      body: { from: "rain", to: "late", type: "causes", weight: 0.2 },
    });
    expect(stronger.body.relation.weight).toBe(0.6);
    const listed = await server.call("GET", "/v1/relations/late?direction=in&types=causes");
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ key: "late", namespace: "default" });
    expect(listed.body.relations).toHaveLength(1);
    const byBody = await server.call("POST", "/v1/relations/query", {
      body: { key: "rain", direction: "out" },
    });
    expect(byBody.body.relations.map((r: { to: string }) => r.to)).toEqual(["late"]);
    const removed = await server.call("DELETE", "/v1/relations?from=rain&to=late&type=causes");
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ removed: 1 });
    expect((await server.call("GET", "/v1/relations/late")).body.relations).toEqual([]);
  });

  it("answers typed errors that say what to do, and writes nothing", async () => {
    const server = await startTestServer();
    await store(server, "rain", "It rained all morning");
    await store(server, "late", "The user was late to work");
    const cases = [
      [{ from: "rain", to: "gone", type: "causes" }, 404, "NOT_FOUND", "store it first"],
      [{ from: "rain", to: "rain", type: "causes" }, 400, "INVALID_INPUT", "itself"],
      [{ from: "rain", to: "late", type: "a b" }, 400, "INVALID_INPUT", "relation type"],
      [{ from: "rain", to: "late", type: "causes", weight: 2 }, 400, "INVALID_INPUT", "0 to 1"],
      [{ from: "rain", to: "late", type: "causes", bogus: 1 }, 400, "INVALID_INPUT", "bogus"],
    ] as const;
    for (const [body, status, code, words] of cases) {
      const response = await server.call("POST", "/v1/relations", { body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(response.body.error.message).toContain(words);
    }
    const missing = await server.call("GET", "/v1/relations/gone");
    expect(missing.status).toBe(404);
    expect((await server.call("GET", "/v1/relations/rain")).body.relations).toEqual([]);
  });

  it("scopes every relation route to the token's namespaces (403)", async () => {
    const server = await startTestServer();
    await store(server, "x", "b's first", "b");
    await store(server, "y", "b's second", "b");
    await server.call("POST", "/v1/relations", {
      body: { from: "x", to: "y", type: "supports", namespace: "b" },
    });
    for (const [method, path, body] of [
      ["POST", "/v1/relations", { from: "x", to: "y", type: "causes", namespace: "b" }],
      ["DELETE", "/v1/relations?from=x&to=y&namespace=b", undefined],
      ["GET", "/v1/relations/x?namespace=b", undefined],
      ["POST", "/v1/relations/query", { key: "x", namespace: "b" }],
    ] as const) {
      const response = await server.call(method, path, {
        token: TOKEN_A,
        ...(body ? { body } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe("FORBIDDEN");
    }
    // A's own namespace holds no such keys: the names do not leak across.
    const own = await server.call("GET", "/v1/relations/x", { token: TOKEN_A });
    expect(own.status).toBe(404);
    expect((await server.call("GET", "/v1/relations/x?namespace=b")).body.relations).toHaveLength(
      1,
    );
  });

  it("exports edges with their entries as NDJSON and imports them back", async () => {
    const server = await startTestServer();
    await store(server, "rain", "It rained all morning");
    await store(server, "late", "The user was late to work");
    await server.call("POST", "/v1/relations", {
      body: { from: "rain", to: "late", type: "causes" },
    });
    const exported = await server.call("GET", "/v1/export?namespace=default");
    const lines = String(exported.body)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.find((entry) => entry.key === "rain").relations).toMatchObject([
      { to: "late", type: "causes", weight: 1 },
    ]);
    await server.call("DELETE", "/v1/namespaces/default");
    const imported = await server.call("POST", "/v1/import", {
      raw: `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 2, relations: { imported: 1, rejected: [] } });
    expect((await server.call("GET", "/v1/relations/late")).body.relations).toHaveLength(1);
  });
});

describe("MCP: memory_relate, memory_relations", () => {
  it("relates two memories and lists them with excerpts, through the official client", async () => {
    const server = await startTestServer();
    await store(server, "rain", "It rained all morning", "a");
    await store(server, "late", "The user was late to work", "a");
    const client = await connect(httpTransport(server.url, TOKEN_A));
    const related = await client.callTool({
      name: "memory_relate",
      arguments: { from: "rain", to: "late", type: "causes", weight: 0.7 },
    });
    expect(related.isError).toBeFalsy();
    expect(textOf(related)).toContain('"rain" causes "late" (weight 0.7)');
    expect((related.structuredContent as Structured).relation).toMatchObject({
      namespace: "a",
      from: "rain",
      to: "late",
    });
    const listed = await client.callTool({ name: "memory_relations", arguments: { key: "late" } });
    expect(listed.isError).toBeFalsy();
    expect(textOf(listed)).toContain('- <- causes from "rain" (weight 0.7): It rained all morning');
    const missing = await client.callTool({
      name: "memory_relate",
      arguments: { from: "rain", to: "nowhere", type: "causes" },
    });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^NOT_FOUND: .*store it first/);
    const forbidden = await client.callTool({
      name: "memory_relations",
      arguments: { key: "late", namespace: "b" },
    });
    expect(forbidden.isError).toBe(true);
  });
});
