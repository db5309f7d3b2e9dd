import { describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A } from "./helpers.js";
import { connect, httpTransport, type Structured, textOf } from "./mcp-clients.js";

const store = (server: Awaited<ReturnType<typeof startTestServer>>, body: object) =>
  server.call("POST", "/v1/memories", { body });

describe("HTTP: supersede, unsupersede, history", () => {
  it("supersedes, restores and reports what changed", async () => {
    const server = await startTestServer();
    await store(server, { key: "berlin", content: "The user lives in Berlin" });
    await store(server, { key: "munich", content: "The user moved to Munich" });

    const superseded = await server.call("POST", "/v1/supersede", {
      body: { oldKey: "berlin", newKey: "munich" },
    });
    expect(superseded.status).toBe(200);
    expect(superseded.body).toMatchObject({
      superseded: true,
      entry: { key: "berlin", supersededBy: "munich", content: "The user lives in Berlin" },
      replacedBy: { key: "munich" },
    });
    expect((await server.call("GET", "/v1/count")).body.count).toBe(1);

    const restored = await server.call("POST", "/v1/unsupersede", { body: { key: "berlin" } });
    expect(restored.status).toBe(200);
    expect(restored.body.entry).toMatchObject({ key: "berlin" });
    expect(restored.body.entry.supersededBy).toBeUndefined();
    expect((await server.call("GET", "/v1/count")).body.count).toBe(2);
  });

  it("answers typed errors and changes nothing on bad repairs", async () => {
    const server = await startTestServer();
    await store(server, { key: "live", content: "The user drinks tea" });
    const cases = [
      ["/v1/supersede", { oldKey: "missing", newKey: "live" }, 404, "NOT_FOUND", "oldKey"],
      ["/v1/supersede", { oldKey: "live", newKey: "missing" }, 404, "NOT_FOUND", "store the newer"],
      ["/v1/supersede", { oldKey: "live", newKey: "live" }, 400, "INVALID_INPUT", "itself"],
      ["/v1/unsupersede", { key: "missing" }, 404, "NOT_FOUND", "memory list"],
      ["/v1/unsupersede", { key: "live" }, 409, "CONFLICT", "already current"],
      ["/v1/unsupersede", { key: "live::history:1" }, 400, "INVALID_INPUT", "reserved"],
      ["/v1/unsupersede", { key: "live", bogus: 1 }, 400, "INVALID_INPUT", "bogus"],
    ] as const;
    for (const [path, body, status, code, words] of cases) {
      const response = await server.call("POST", path, { body });
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(response.body.error.message).toContain(words);
    }
    const live = await server.call("GET", "/v1/memories/live");
    expect(live.body.entry.supersededBy).toBeUndefined();
    expect((await server.call("GET", "/v1/count?includeSuperseded=true")).body.count).toBe(1);
  });

  it("lists a key's versions newest first, in the path and the body form", async () => {
    const server = await startTestServer();
    for (const content of ["Ship on Monday", "Ship on Friday"])
      await store(server, { key: "plan", content, namespace: "a" });
    const byPath = await server.call("GET", "/v1/memories/plan/history?namespace=a");
    expect(byPath.status).toBe(200);
    expect(byPath.body.key).toBe("plan");
    expect(byPath.body.namespace).toBe("a");
    expect(byPath.body.versions.map((entry: { content: string }) => entry.content)).toEqual([
      "Ship on Friday",
      "Ship on Monday",
    ]);
    expect(byPath.body.versions[1]).toMatchObject({
      key: "plan::history:1",
      supersededBy: "plan",
    });
    const byBody = await server.call("POST", "/v1/memories/history", {
      body: { key: "plan", namespace: "a" },
    });
    expect(byBody.body).toEqual(byPath.body);
    const missing = await server.call("GET", "/v1/memories/plan/history");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("NOT_FOUND");
    const forged = await store(server, { key: "plan::history:2", content: "forged" });
    expect(forged.status).toBe(400);
    expect(forged.body.error.message).toContain("reserved");
  });

  it("says which version a same-key store kept, and keeps why entries were superseded", async () => {
    const server = await startTestServer();
    const first = await store(server, { key: "home", content: "The user lives in Oslo" });
    expect(first.body.entry.keptVersion).toBeUndefined();
    const second = await store(server, { key: "home", content: "The user lives in Bergen" });
    expect(second.status).toBe(200);
    expect(second.body.entry.keptVersion).toBe("home::history:1");

    await store(server, { key: "diet-1", content: "The user is vegetarian" });
    const newer = await store(server, { key: "diet-2", content: "The user is not vegetarian" });
    expect(newer.body.entry.conflictRecord).toMatchObject({ superseded: ["diet-1"] });
    const old = await server.call("GET", "/v1/memories/diet-1");
    expect(old.body.entry.supersessionRecord).toMatchObject({
      by: "diet-2",
      decidedBy: "rules",
      rule: "negated",
    });
    const recalled = await server.call("POST", "/v1/recall", {
      body: { query: "vegetarian", includeSuperseded: true, minScore: 0 },
    });
    const stale = recalled.body.results.find((entry: { key: string }) => entry.key === "diet-1");
    expect(stale.explain.superseded).toMatchObject({ by: "diet-2", rule: "negated" });
    expect(stale.explain.superseded.reason).toMatch(/negated/);
  });

  it("scopes every repair route to the token's namespaces (403)", async () => {
    const server = await startTestServer();
    await store(server, { key: "x", content: "b's data", namespace: "b" });
    for (const [method, path, body] of [
      ["POST", "/v1/unsupersede", { key: "x", namespace: "b" }],
      ["POST", "/v1/supersede", { oldKey: "x", newKey: "y", namespace: "b" }],
      ["GET", "/v1/memories/x/history?namespace=b", undefined],
      ["POST", "/v1/memories/history", { key: "x", namespace: "b" }],
    ] as const) {
      const response = await server.call(method, path, {
        token: TOKEN_A,
        ...(body ? { body } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe("FORBIDDEN");
    }
  });
});

describe("MCP: memory_supersede, memory_unsupersede, memory_history", () => {
  it("corrects a decision and reads the history through the official client", async () => {
    const server = await startTestServer();
    await store(server, { key: "berlin", content: "The user lives in Berlin", namespace: "a" });
    await store(server, { key: "munich", content: "The user moved to Munich", namespace: "a" });
    const client = await connect(httpTransport(server.url, TOKEN_A));

    const superseded = await client.callTool({
      name: "memory_supersede",
      arguments: { oldKey: "berlin", newKey: "munich", namespace: "a" },
    });
    expect(superseded.isError).toBeFalsy();
    expect(textOf(superseded)).toContain('"berlin" is now superseded by "munich"');
    expect((superseded.structuredContent as Structured).entry).toMatchObject({
      key: "berlin",
      supersededBy: "munich",
    });

    const restored = await client.callTool({
      name: "memory_unsupersede",
      arguments: { key: "berlin", namespace: "a" },
    });
    expect(restored.isError).toBeFalsy();
    expect(textOf(restored)).toContain('"berlin" is current again');
    const again = await client.callTool({
      name: "memory_unsupersede",
      arguments: { key: "berlin", namespace: "a" },
    });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^CONFLICT: .*already current/);

    await store(server, { key: "munich", content: "The user moved to Hamburg", namespace: "a" });
    const history = await client.callTool({
      name: "memory_history",
      arguments: { key: "munich", namespace: "a" },
    });
    const versions = (history.structuredContent as Structured).versions as Structured[];
    expect(versions.map((version) => version.key)).toEqual(["munich", "munich::history:1"]);
    const lines = textOf(history).split("\n");
    expect(lines[0]).toMatch(/^- \d{4}-\d\d-\d\dT.*Z \(current\) .*The user moved to Hamburg$/);
    expect(lines[1]).toMatch(/^- \d{4}-\d\d-\d\dT.*Z \(earlier\) .*The user moved to Munich$/);
  });

  it("memory_store says which version a same-key store kept", async () => {
    const server = await startTestServer();
    const client = await connect(httpTransport(server.url, TOKEN_A));
    const store = (content: string) =>
      client.callTool({
        name: "memory_store",
        arguments: { key: "plan", content, namespace: "a" },
      });
    const first = await store("Ship on Monday");
    expect(textOf(first)).not.toContain("kept");
    const second = await store("Ship on Friday");
    expect(second.isError).toBeFalsy();
    expect(textOf(second)).toContain(
      'The previous content is kept as "plan::history:1" (memory_history with key "plan" lists it).',
    );
    expect((second.structuredContent as Structured).entry).toMatchObject({
      key: "plan",
      keptVersion: "plan::history:1",
    });
  });

  it("answers tool errors for bad input and other namespaces", async () => {
    const server = await startTestServer();
    await store(server, { key: "x", content: "b's data", namespace: "b" });
    const client = await connect(httpTransport(server.url, TOKEN_A));
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["memory_history", { key: "x", namespace: "b" }, /^FORBIDDEN: /],
      ["memory_unsupersede", { key: "x", namespace: "b" }, /^FORBIDDEN: /],
      ["memory_supersede", { oldKey: "x", newKey: "y", namespace: "b" }, /^FORBIDDEN: /],
      ["memory_history", { key: "nothing" }, /^NOT_FOUND: .*"nothing"/],
      ["memory_supersede", { oldKey: "nothing", newKey: "x" }, /^NOT_FOUND: /],
      ["memory_unsupersede", { key: "x", extra: true }, /^INVALID_INPUT: |Invalid arguments|extra/],
    ];
    for (const [name, args, expected] of cases) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(expected);
    }
  });
});
