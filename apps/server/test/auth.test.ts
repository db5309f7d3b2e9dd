import { createInMemoryMemory } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { silentLogger, startServer } from "../src/index.js";
import { rawHttp, startTestServer, TOKEN_A, TOKEN_ALL, TOKEN_B } from "./helpers.js";

describe("auth", () => {
  it("requires a bearer token on /v1 and says how to send it", async () => {
    const server = await startTestServer();
    const missing = await server.call("GET", "/v1/count", { token: "" });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe("UNAUTHORIZED");
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    const wrong = await server.call("GET", "/v1/count", { token: "not-a-valid-token-at-all" });
    expect(wrong.status).toBe(401);
    const basic = await server.call("GET", "/v1/count", {
      token: "",
      headers: { authorization: "Basic abc" },
    });
    expect(basic.status).toBe(401);
    expect(basic.body.error.message).toContain("Bearer");
  });

  it("never echoes a presented token in an error", async () => {
    const server = await startTestServer();
    const secret = "super-secret-wrong-token-value-xyz";
    const response = await server.call("GET", "/v1/count", { token: secret });
    expect(JSON.stringify(response.body)).not.toContain(secret);
  });

  it("forbids a token for namespace a from reading or writing namespace b (403)", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", {
      body: { key: "secret", content: "b's data", namespace: "b" },
    });
    const read = await server.call("GET", "/v1/memories/secret?namespace=b", { token: TOKEN_A });
    expect(read.status).toBe(403);
    expect(read.body.error.code).toBe("FORBIDDEN");
    for (const [method, path, body] of [
      ["POST", "/v1/memories", { key: "x", content: "x", namespace: "b" }],
      ["POST", "/v1/recall", { query: "data", namespace: "b" }],
      ["GET", "/v1/memories?namespace=b", undefined],
      ["GET", "/v1/count?namespace=b", undefined],
      ["GET", "/v1/core?namespace=b", undefined],
      ["DELETE", "/v1/memories/secret?namespace=b", undefined],
      ["DELETE", "/v1/namespaces/b", undefined],
      ["DELETE", "/v1/sessions/s1?namespace=b", undefined],
      ["GET", "/v1/export?namespace=b", undefined],
      ["POST", "/v1/context", { message: "data", namespace: "b" }],
      ["POST", "/v1/autosave", { userMessage: "hi", namespace: "b" }],
      ["POST", "/v1/supersede", { oldKey: "secret", newKey: "y", namespace: "b" }],
    ] as const) {
      const response = await server.call(method, path, {
        token: TOKEN_A,
        ...(body ? { body } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect((await server.call("GET", "/v1/count?namespace=b")).body.count).toBe(1);
  });

  it("uses a scoped token's own namespace when the request names none", async () => {
    const server = await startTestServer();
    const stored = await server.call("POST", "/v1/memories", {
      body: { key: "mine", content: "a's data" },
      token: TOKEN_A,
    });
    expect(stored.body.entry.namespace).toBe("a");
    const got = await server.call("GET", "/v1/memories/mine", { token: TOKEN_A });
    expect(got.status).toBe(200);
    const recall = await server.call("POST", "/v1/recall", {
      body: { query: "data" },
      token: TOKEN_A,
    });
    expect(recall.body.results.map((entry: { namespace: string }) => entry.namespace)).toEqual([
      "a",
    ]);
    expect((await server.call("GET", "/v1/count?namespace=default")).body.count).toBe(0);
  });

  it("isolates namespaces: each token sees only its own entries", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "from a" },
      token: TOKEN_A,
    });
    await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "from b" },
      token: TOKEN_B,
    });
    await server.call("POST", "/v1/memories", {
      body: { key: "k2", content: "shared", namespace: "shared" },
      token: TOKEN_B,
    });
    expect(
      (await server.call("GET", "/v1/memories/k", { token: TOKEN_A })).body.entry.content,
    ).toBe("from a");
    expect(
      (await server.call("GET", "/v1/memories/k", { token: TOKEN_B })).body.entry.content,
    ).toBe("from b");

    const exportB = await server.call("GET", "/v1/export", { token: TOKEN_B });
    const keys = (exportB.body as string)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).namespace);
    expect(keys.sort()).toEqual(["b", "shared"]);
    const exportAll = await server.call("GET", "/v1/export", { token: TOKEN_ALL });
    expect((exportAll.body as string).trim().split("\n")).toHaveLength(3);
  });

  it("rejects imported lines for namespaces the token may not use, and imports the rest", async () => {
    const server = await startTestServer();
    const body = [
      JSON.stringify({ key: "ok", content: "fine" }),
      JSON.stringify({ key: "no", content: "not yours", namespace: "b" }),
    ].join("\n");
    const response = await server.call("POST", "/v1/import", { raw: body, token: TOKEN_A });
    expect(response.body.imported).toBe(1);
    expect(response.body.rejected).toEqual([
      { index: 1, key: "no", code: "FORBIDDEN", message: 'This token may not use namespace "b".' },
    ]);
    expect((await server.call("GET", "/v1/count?namespace=b")).body.count).toBe(0);
  });

  it("purges a session only in the token's namespaces", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", {
      body: { key: "x", content: "a", namespace: "a", sessionId: "s" },
    });
    await server.call("POST", "/v1/memories", {
      body: { key: "x", content: "b", namespace: "b", sessionId: "s" },
    });
    const purged = await server.call("DELETE", "/v1/sessions/s", { token: TOKEN_A });
    expect(purged.body).toEqual({ deleted: 1 });
    expect((await server.call("GET", "/v1/count?namespace=b")).body.count).toBe(1);
  });

  it("refuses to start without tokens unless unauthenticated loopback mode is on", async () => {
    await expect(
      startServer({ memory: createInMemoryMemory(), port: 0, env: {}, logger: silentLogger }),
    ).rejects.toThrow(/MEMORY_SERVER_TOKEN.*MEMORY_SERVER_ALLOW_UNAUTHENTICATED_LOOPBACK/s);
  });

  it("refuses unauthenticated mode on a non-loopback host", async () => {
    await expect(
      startServer({
        memory: createInMemoryMemory(),
        host: "0.0.0.0",
        port: 0,
        env: {},
        allowUnauthenticatedLoopback: true,
        logger: silentLogger,
      }),
    ).rejects.toMatchObject({ code: "CONFIG", message: expect.stringContaining("loopback") });
  });

  it("serves without a token in unauthenticated loopback mode, but not to foreign origins or hosts", async () => {
    const server = await startTestServer({ tokens: [], allowUnauthenticatedLoopback: true });
    expect((await server.call("GET", "/v1/count", { token: "" })).status).toBe(200);
    const crossSite = await server.call("POST", "/v1/memories", {
      token: "",
      body: { key: "evil", content: "x" },
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    const local = await server.call("GET", "/v1/count", {
      token: "",
      headers: { origin: "http://localhost:3000" },
    });
    expect(local.status).toBe(200);
    const rebound = await rawHttp(
      server.url,
      "GET /v1/count HTTP/1.1\r\nHost: evil.example:8787\r\nConnection: close\r\n\r\n",
    );
    expect(rebound).toMatch(/^HTTP\/1\.1 403/);
    expect((await server.call("GET", "/v1/count", { token: "" })).body.count).toBe(0);
  });

  it("takes tokens from the environment and from [server].tokens with token_env", async () => {
    const memory = createInMemoryMemory();
    const handle = await startServer({
      memory,
      port: 0,
      logger: silentLogger,
      config: {
        memory: {} as never,
        server: { tokens: [{ token_env: "MY_TEAM_TOKEN", namespaces: ["team"] }] },
      },
      env: {
        MEMORY_SERVER_TOKEN: "env-token-for-everything-123456",
        MY_TEAM_TOKEN: "team-token-from-env-var-1234567",
        MEMORY_SERVER_TOKENS: JSON.stringify([
          { token: "json-token-for-ns-x-12345678", namespaces: ["x"] },
        ]),
      },
    });
    try {
      const get = (token: string, namespace: string) =>
        fetch(`${handle.url}/v1/count?namespace=${namespace}`, {
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await get("env-token-for-everything-123456", "anything")).status).toBe(200);
      expect((await get("team-token-from-env-var-1234567", "team")).status).toBe(200);
      expect((await get("team-token-from-env-var-1234567", "x")).status).toBe(403);
      expect((await get("json-token-for-ns-x-12345678", "x")).status).toBe(200);
      expect((await get("json-token-for-ns-x-12345678", "team")).status).toBe(403);
    } finally {
      await handle.close();
    }
  });
});
