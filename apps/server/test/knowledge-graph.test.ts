import { writeTriples } from "@memory/lifecycle";
import { describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A } from "./helpers.js";
import { connect, httpTransport, type Structured, textOf } from "./mcp-clients.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;

/** Melanie lived in Paris from March, then in Lyon from June (written by the library). */
async function seed(server: Server, namespace: string) {
  await server.memory.store({ key: "melanie_city", content: "Melanie lives in Lyon", namespace });
  const said = (object: string, validFrom: string) => ({
    subject: "Melanie",
    predicate: "lives_in",
    object,
    sourceKey: "melanie_city",
    validFrom,
  });
  await writeTriples(
    server.memory,
    [said("Paris", "2026-03-01T00:00:00.000Z"), said("Lyon", "2026-06-01T00:00:00.000Z")],
    { namespace },
  );
}

describe("HTTP: POST /v1/kg", () => {
  it("answers the triples valid now and at asOf, and typed errors for bad input", async () => {
    const server = await startTestServer();
    await seed(server, "default");
    const now = await server.call("POST", "/v1/kg", { body: { entity: "Melanie" } });
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    expect(now.body).toMatchObject({ entity: "melanie", namespace: "default" });
    expect(now.body.triples.map((t: { object: string }) => t.object)).toEqual(["lyon"]);
    const then = await server.call("POST", "/v1/kg", {
      body: { entity: "melanie's", asOf: "2026-04-01" },
    });
    expect(then.body.triples).toMatchObject([
      {
        object: "paris",
        validFrom: "2026-03-01T00:00:00.000Z",
        validTo: "2026-06-01T00:00:00.000Z",
      },
    ]);
    for (const body of [{ entity: " " }, { entity: "Melanie", asOf: "last spring" }]) {
      const response = await server.call("POST", "/v1/kg", { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe("INVALID_INPUT");
    }
    const spec = await server.call("GET", "/openapi.json");
    expect(spec.body.paths["/v1/kg"].post.operationId).toBe("knowledgeGraph");
  });

  it("is scoped to the token's namespaces (403)", async () => {
    const server = await startTestServer();
    await seed(server, "b");
    const response = await server.call("POST", "/v1/kg", {
      token: TOKEN_A,
      body: { entity: "Melanie", namespace: "b" },
    });
    expect(response.status).toBe(403);
    const own = await server.call("POST", "/v1/kg", {
      token: TOKEN_A,
      body: { entity: "Melanie" },
    });
    expect(own.body).toMatchObject({ namespace: "a", triples: [] });
  });
});

describe("MCP: memory_kg", () => {
  it("lists the facts about an entity at a time, through the official client", async () => {
    const server = await startTestServer();
    await seed(server, "a");
    const client = await connect(httpTransport(server.url, TOKEN_A));
    const then = await client.callTool({
      name: "memory_kg",
      arguments: { entity: "Melanie", asOf: "2026-04-01" },
    });
    expect(then.isError).toBeFalsy();
    expect(textOf(then)).toContain(
      "- Melanie lives_in Paris (since 2026-03-01T00:00:00.000Z, until 2026-06-01T00:00:00.000Z)",
    );
    expect((then.structuredContent as Structured).triples).toHaveLength(1);
    const now = await client.callTool({ name: "memory_kg", arguments: { entity: "Melanie" } });
    expect(textOf(now)).toContain("- Melanie lives_in Lyon (since 2026-06-01T00:00:00.000Z)");
    const bad = await client.callTool({
      name: "memory_kg",
      arguments: { entity: "Melanie", asOf: "soon" },
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^INVALID_INPUT: asOf "soon" is not a valid time/);
  });
});
