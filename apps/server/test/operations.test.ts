import { describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A, TOKEN_ALL } from "./helpers.js";
import { connect, httpTransport, type Structured } from "./mcp-clients.js";

/**
 * HTTP routes and MCP tools call one operation layer (src/operations): the same call over both
 * channels of one server gives the same entries, with the same defaults and the same scope.
 */
describe("one operation layer for HTTP and MCP", () => {
  it("recall without a limit returns the same entries over HTTP and MCP", async () => {
    const server = await startTestServer();
    for (let index = 0; index < 8; index++) {
      const stored = await server.call("POST", "/v1/memories", {
        body: { key: `fact-${index}`, content: `The build step number ${index} uses turbo.` },
      });
      expect(stored.status).toBe(200);
    }
    const overHttp = await server.call("POST", "/v1/recall", { body: { query: "build turbo" } });
    expect(overHttp.status).toBe(200);
    const httpKeys = (overHttp.body.results as { key: string }[]).map((entry) => entry.key);
    expect(httpKeys).toHaveLength(5);

    const client = await connect(httpTransport(server.url, TOKEN_ALL));
    const overMcp = await client.callTool({
      name: "memory_recall",
      arguments: { query: "build turbo" },
    });
    expect(overMcp.isError).toBeFalsy();
    const mcpKeys = ((overMcp.structuredContent as Structured).results as { key: string }[]).map(
      (entry) => entry.key,
    );
    expect(mcpKeys).toEqual(httpKeys);
  });

  it("a scoped token gets the same refusal over HTTP and MCP", async () => {
    const server = await startTestServer();
    const overHttp = await server.call("POST", "/v1/recall", {
      body: { query: "x", namespace: "b" },
      token: TOKEN_A,
    });
    expect(overHttp.status).toBe(403);
    const client = await connect(httpTransport(server.url, TOKEN_A));
    const overMcp = await client.callTool({
      name: "memory_recall",
      arguments: { query: "x", namespace: "b" },
    });
    expect(overMcp.isError).toBe(true);
    const text = (overMcp.content as { text: string }[])[0]?.text;
    expect(text).toBe(`${overHttp.body.error.code}: ${overHttp.body.error.message}`);
  });
});
