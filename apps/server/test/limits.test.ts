import { describe, expect, it } from "vitest";
import { rawHttp, startTestServer, TOKEN_ALL } from "./helpers.js";

describe("limits and malformed input", () => {
  it("answers 413 for a declared Content-Length above the limit", async () => {
    const server = await startTestServer({ maxBodyBytes: 1024 });
    const response = await server.call("POST", "/v1/memories", {
      body: { key: "big", content: "x".repeat(2000) },
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(response.body.error.message).toContain("max_body_bytes");
  });

  it("answers 413 for a chunked body that grows past the limit", async () => {
    const server = await startTestServer({ maxBodyBytes: 1024 });
    const chunk = new TextEncoder().encode("x".repeat(512));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${server.url}/v1/memories`, {
      method: "POST",
      body,
      headers: { authorization: `Bearer ${TOKEN_ALL}` },
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
  });

  it("uses a 1 MB default limit", async () => {
    const server = await startTestServer();
    const ok = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "x".repeat(1_000_000) },
    });
    expect(ok.status).toBe(200);
    const tooBig = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "x".repeat(1_100_000) },
    });
    expect(tooBig.status).toBe(413);
  });

  it("answers 413 for an import over max_import_bytes or with an oversized line", async () => {
    const server = await startTestServer({ maxBodyBytes: 1024, maxImportBytes: 4096 });
    const line = JSON.stringify({ key: "k", content: "x".repeat(100) });
    const body = Array.from({ length: 100 }, () => line).join("\n");
    const tooBig = await server.call("POST", "/v1/import", { raw: body });
    expect(tooBig.status).toBe(413);
    const longLine = await server.call("POST", "/v1/import", {
      raw: JSON.stringify({ key: "k", content: "y".repeat(2000) }),
    });
    expect(longLine.status).toBe(413);
  });

  it("answers 400 with the parser's reason for malformed JSON", async () => {
    const server = await startTestServer();
    const response = await server.call("POST", "/v1/recall", { raw: '{"query": "x",}' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("INVALID_INPUT");
    expect(response.body.error.message).toMatch(/not valid JSON: .*position/);
  });

  it("answers 400 for an empty body, invalid UTF-8 and a non-object", async () => {
    const server = await startTestServer();
    const empty = await server.call("POST", "/v1/memories", { raw: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain("empty");
    const binary = await server.call("POST", "/v1/memories", {
      raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(binary.status).toBe(400);
    expect(binary.body.error.message).toContain("UTF-8");
    const array = await server.call("POST", "/v1/memories", { body: [1, 2] });
    expect(array.status).toBe(400);
  });

  it("names the field for schema errors and unknown fields", async () => {
    const server = await startTestServer();
    const wrongType = await server.call("POST", "/v1/recall", {
      body: { query: "x", limit: "ten" },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain("body.limit");
    const typo = await server.call("POST", "/v1/memories", {
      body: { key: "k", content: "x", namespce: "a" },
    });
    expect(typo.status).toBe(400);
    expect(typo.body.error.message).toContain("namespce");
    const badQuery = await server.call("GET", "/v1/memories?limit=-1");
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.error.message).toContain("query.limit");
    const unknownQuery = await server.call("GET", "/v1/count?namespaces=a");
    expect(unknownQuery.status).toBe(400);
  });

  it("refuses a limit above an operation's bound with 400 instead of clamping it (docs/input-rules.md)", async () => {
    const server = await startTestServer();
    for (const [method, path, body] of [
      ["POST", "/v1/recall", { query: "x", limit: 1001 }],
      ["GET", "/v1/memories?limit=10001", undefined],
      ["GET", "/v1/core?limit=1001", undefined],
      ["POST", "/v1/context", { message: "x", limit: 101 }],
    ] as const) {
      const refused = await server.call(method, path, body ? { body } : {});
      expect(refused.status, path).toBe(400);
      expect(refused.body.error.message, path).toMatch(/limit/);
    }
    for (const [method, path, body] of [
      ["POST", "/v1/recall", { query: "x", limit: 1000 }],
      ["GET", "/v1/memories?limit=10000", undefined],
    ] as const) {
      expect((await server.call(method, path, body ? { body } : {})).status, path).toBe(200);
    }
  });

  it("answers 413 for a huge declared Content-Length before reading the body", async () => {
    const server = await startTestServer();
    // fetch always sets a correct Content-Length; talk HTTP/1.1 by hand to send a huge one.
    const url = new URL(server.url);
    const reply = await rawHttp(
      server.url,
      `POST /v1/memories HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${TOKEN_ALL}\r\nContent-Length: 999999999999\r\nConnection: close\r\n\r\n{}`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 413/);
  });
});
