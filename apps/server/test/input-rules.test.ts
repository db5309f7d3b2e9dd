import { describe, expect, it } from "vitest";
import { startTestServer } from "./helpers.js";

// docs/input-rules.md over HTTP and MCP: the same refusals as the library, the same error code.

const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

function toolCall(args: Record<string, unknown>, name = "memory_store") {
  return { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } };
}

/** A JSON text with the UTF-8 bytes of `before`, then `bad`, then `after`. */
function withBadBytes(before: string, bad: number[], after: string): Uint8Array {
  return Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]);
}

describe("invalid UTF-8 is refused the same way on /v1 and on /mcp", () => {
  const storeBody = (content: string) => JSON.stringify(toolCall({ key: "k", content }));

  it("accepts a well-formed MCP call (the baseline)", async () => {
    const server = await startTestServer();
    const response = await server.call("POST", "/mcp", {
      raw: storeBody("caf\u00e9 au lait"),
      headers: MCP_HEADERS,
    });
    expect(response.status).toBe(200);
    expect(response.body.result.isError).toBeFalsy();
    expect((await server.memory.get("k"))?.content).toBe("caf\u00e9 au lait");
  });

  it.each([
    ["a stray 0xFF byte", [0xff]],
    ["an overlong encoding", [0xc0, 0xaf]],
    ["an encoded surrogate (CESU-8)", [0xed, 0xa0, 0x80]],
    ["a truncated sequence", [0xe8, 0xa8]],
  ])("refuses %s with 400 INVALID_INPUT and stores nothing", async (_, bad) => {
    const server = await startTestServer();
    const [before, after] = storeBody("bad:BAD:end").split("BAD") as [string, string];
    const mcp = await server.call("POST", "/mcp", {
      raw: withBadBytes(before, bad, after),
      headers: MCP_HEADERS,
    });
    const http = await server.call("POST", "/v1/memories", {
      raw: withBadBytes('{"key":"k","content":"bad:', bad, ':end"}'),
      headers: { "content-type": "application/json" },
    });
    expect(http.status).toBe(400);
    expect(http.body.error.code).toBe("INVALID_INPUT");
    expect(mcp.status).toBe(400);
    expect(mcp.body).toEqual(http.body);
    expect(mcp.body.error.message).toMatch(/not valid UTF-8/);
    expect(await server.memory.count()).toBe(0);
  });
});

describe("MCP tools follow the library's rules", () => {
  async function callTool(args: Record<string, unknown>, name = "memory_store") {
    const server = await startTestServer();
    const response = await server.call("POST", "/mcp", {
      raw: JSON.stringify(toolCall(args, name)),
      headers: MCP_HEADERS,
    });
    expect(response.status).toBe(200);
    return { server, result: response.body.result ?? response.body.error };
  }

  it("refuses an escaped lone surrogate in content with INVALID_INPUT", async () => {
    const { server, result } = await callTool({ key: "k", content: "half \ud800 pair" });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^INVALID_INPUT: content contains a lone UTF-16/);
    expect(await server.memory.count()).toBe(0);
  });

  it("stores and reads keys of up to 1,024 characters and namespaces of up to 256", async () => {
    const key = "k".repeat(1024);
    const namespace = "名".repeat(256);
    const { server, result } = await callTool({ key, content: "long", namespace });
    expect(result.isError).toBeFalsy();
    expect((await server.memory.get(key, { namespace }))?.content).toBe("long");
  });
});

describe("namespaces, keys and timestamps over HTTP", () => {
  it("round-trips wide namespaces exactly, through the body forms", async () => {
    const server = await startTestServer();
    const namespaces = ["alice@example.com", "acme:billing", "\u00c4", "A\u0308", "ü".repeat(256)];
    for (const [i, namespace] of namespaces.entries()) {
      const stored = await server.call("POST", "/v1/memories", {
        body: { key: "same", content: `value ${i}`, namespace },
      });
      expect(stored.status, namespace).toBe(200);
      expect(stored.body.entry.namespace).toBe(namespace);
    }
    for (const [i, namespace] of namespaces.entries()) {
      const got = await server.call("POST", "/v1/memories/get", {
        body: { key: "same", namespace },
      });
      expect(got.body.entry.content, namespace).toBe(`value ${i}`);
      const count = await server.call(
        "GET",
        `/v1/count?namespace=${encodeURIComponent(namespace)}`,
      );
      expect(count.body.count, namespace).toBe(1);
    }
    const tooLong = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "x", namespace: "n".repeat(257) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe("INVALID_INPUT");
    const control = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "x", namespace: "a\nb" },
    });
    expect(control.status).toBe(400);
    expect(control.body.error.message).toMatch(/namespace contains the control character/);
  });

  it("stores dot-segment keys in a dotted namespace and reaches them through the body forms", async () => {
    const server = await startTestServer();
    const namespace = "../tenant/a";
    for (const key of [".", "..", "./..", "../..", "%2e%2e"]) {
      const stored = await server.call("POST", "/v1/memories", {
        body: { key, content: `about ${key}`, namespace },
      });
      expect(stored.status, key).toBe(200);
      const got = await server.call("POST", "/v1/memories/get", { body: { key, namespace } });
      expect(got.body.entry, key).toMatchObject({ key, namespace, content: `about ${key}` });
      const forgot = await server.call("POST", "/v1/memories/forget", { body: { key, namespace } });
      expect(forgot.body, key).toEqual({ deleted: true });
    }
  });

  it("purges a namespace made of dot segments through the body form", async () => {
    const server = await startTestServer();
    for (const namespace of ["..", "."]) {
      await server.call("POST", "/v1/memories", { body: { key: "k", content: "x", namespace } });
    }
    await server.call("POST", "/v1/memories", { body: { key: "k", content: "kept" } });
    const purged = await server.call("POST", "/v1/namespaces/purge", { body: { namespace: ".." } });
    expect(purged.body).toEqual({ deleted: 1 });
    expect((await server.call("GET", "/v1/count?namespace=.")).body).toEqual({ count: 1 });
    expect((await server.call("GET", "/v1/count")).body).toEqual({ count: 1 });
  });

  it("accepts only the documented timestamp form in filters", async () => {
    const server = await startTestServer();
    for (const since of ["2026-01-31T00:00:00Z", "2026-01-31T02:00:00+02:00", "2026-01-31"]) {
      const response = await server.call("GET", `/v1/count?since=${encodeURIComponent(since)}`);
      expect(response.status, since).toBe(200);
    }
    for (const since of [
      "2026-01-31t00:00:00z",
      "2026-01-31 00:00:00Z",
      "2026-01-31T00:00:00+0000",
      " 2026-01-31T00:00:00Z",
      "2026-01-31T00:00:00",
    ]) {
      const response = await server.call("GET", `/v1/count?since=${encodeURIComponent(since)}`);
      expect(response.status, since).toBe(400);
      expect(response.body.error.message, since).toMatch(/^since ".*" is not a valid time/);
    }
  });

  it("refuses JSON null for an optional field on store and import alike", async () => {
    const server = await startTestServer();
    const stored = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "x", namespace: null },
    });
    expect(stored.status).toBe(400);
    expect(stored.body.error.code).toBe("INVALID_INPUT");
    const imported = await server.call("POST", "/v1/import", {
      raw: `${JSON.stringify({ key: "k", content: "x", sessionId: null })}\n`,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(imported.body.imported).toBe(0);
    expect(imported.body.rejected[0].code).toBe("INVALID_INPUT");
  });
});
