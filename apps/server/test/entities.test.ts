import { createInMemoryMemory } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A } from "./helpers.js";
import { connect, httpTransport, type Structured, textOf } from "./mcp-clients.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
const store = (server: Server, key: string, content: string, namespace = "default") =>
  server.call("POST", "/v1/memories", {
    // A custom category: the conflict rules (core only) stay out of these tests.
    body: { key, content, namespace, category: "notes" },
  });

const withEntities = () =>
  startTestServer({ memory: createInMemoryMemory({ settings: { entity_reading: true } }) });

describe("HTTP: entities", () => {
  it("lists entities and what the memory says about one, in the path and body forms", async () => {
    const server = await withEntities();
    await store(server, "t1", "Caroline: I went to a support group in Boston.");
    await store(server, "t2", "Melanie: Caroline, come to the beach with us!");
    const listed = await server.call("GET", "/v1/entities?top=2");
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body).toMatchObject({
      namespace: "default",
      entities: [
        { id: "caroline", key: "entity:caroline", name: "Caroline", mentions: 2 },
        { id: "boston", mentions: 1 },
      ],
    });
    const one = await server.call("GET", `/v1/entities/${encodeURIComponent("caroline's")}`);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({ name: "Caroline", mentions: 2 });
    expect(one.body.entries.map((entry: { key: string }) => entry.key)).toEqual(["t2", "t1"]);
    const byBody = await server.call("POST", "/v1/entities/query", {
      body: { name: "Boston", limit: 1 },
    });
    expect(byBody.body.entries.map((entry: { key: string }) => entry.key)).toEqual(["t1"]);
    const missing = await server.call("GET", "/v1/entities/Nobody");
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain("memory entities");
    const openapi = await server.call("GET", "/openapi.json");
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(["/v1/entities", "/v1/entities/{name}", "/v1/entities/query"]),
    );
  });

  it("scopes the entity routes to the token's namespaces (403)", async () => {
    const server = await withEntities();
    await store(server, "x", "Dinner with Lena at Nobu.", "b");
    for (const [method, path, body] of [
      ["GET", "/v1/entities?namespace=b", undefined],
      ["GET", "/v1/entities/Lena?namespace=b", undefined],
      ["POST", "/v1/entities/query", { name: "Lena", namespace: "b" }],
    ] as const) {
      const response = await server.call(method, path, {
        token: TOKEN_A,
        ...(body ? { body } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    const own = await server.call("GET", "/v1/entities", { token: TOKEN_A });
    expect(own.body).toEqual({ namespace: "a", entities: [] });
  });
});

describe("MCP: memory_entities, memory_entity", () => {
  it("lists entities and reads what the memory says about one, through the official client", async () => {
    const server = await withEntities();
    await store(server, "t1", "Jon: I opened a dance studio in Chicago.", "a");
    await store(server, "t2", "Gina: Jon, I will visit Chicago next week!", "a");
    const client = await connect(httpTransport(server.url, TOKEN_A));
    const listed = await client.callTool({ name: "memory_entities", arguments: { top: 5 } });
    expect(listed.isError).toBeFalsy();
    expect(textOf(listed)).toContain("- Chicago (2 memories)");
    expect((listed.structuredContent as Structured).namespace).toBe("a");
    const one = await client.callTool({ name: "memory_entity", arguments: { name: "JON" } });
    expect(one.isError).toBeFalsy();
    expect(textOf(one)).toContain("Jon: named by 2 memories, newest first");
    expect(textOf(one)).toContain('"t2": Gina: Jon, I will visit Chicago next week!');
    const missing = await client.callTool({ name: "memory_entity", arguments: { name: "Nobody" } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^NOT_FOUND: /);
    const forbidden = await client.callTool({
      name: "memory_entities",
      arguments: { namespace: "b" },
    });
    expect(forbidden.isError).toBe(true);
  });
});
