import { PassThrough } from "node:stream";
import { createInMemoryMemory } from "@memory/testkit";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { type McpStdioHandle, runMcpStdio, silentLogger } from "../src/index.js";
import { idOfOverSizeMessage } from "../src/stdio-message-gate.js";
import { startTestServer, TOKEN_ALL } from "./helpers.js";
import { connect, inMemoryStdio, textOf } from "./mcp-clients.js";

/** Newline-delimited JSON-RPC messages written by the server, parsed as they arrive. */
function responses(stdout: PassThrough) {
  const received: Record<string, unknown>[] = [];
  let buffered = "";
  stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      received.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  });
  return {
    received,
    /** The first response matching `predicate` not yet taken, waiting for it to arrive. */
    async next(predicate: (message: Record<string, unknown>) => boolean) {
      for (let attempt = 0; attempt < 20_000; attempt++) {
        const index = received.findIndex(predicate);
        if (index !== -1) return received.splice(index, 1)[0]!;
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error(`no such response among ${JSON.stringify(received)}`);
    },
  };
}

const message = (body: Record<string, unknown>) =>
  Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", ...body })}\n`, "utf8");

const store = (id: number, content: string, key = `k${id}`) =>
  message({
    id,
    method: "tools/call",
    params: { name: "memory_store", arguments: { key, content } },
  });

const handles: McpStdioHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

/** runMcpStdio over in-process streams, initialized. */
async function session(options: { maxMessageBytes?: number } = {}) {
  const memory = createInMemoryMemory();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const handle = await runMcpStdio({ memory, stdin, stdout, logger: silentLogger, ...options });
  handles.push(handle);
  const server = responses(stdout);
  stdin.write(
    message({
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "test", version: "1" },
      },
    }),
  );
  await server.next((response) => response.id === 0);
  stdin.write(message({ method: "notifications/initialized" }));
  return { memory, stdin, server };
}

describe("MCP over stdio: messages refused before a tool runs", () => {
  it("answers a message that is not valid UTF-8 with a parse error and stores nothing", async () => {
    const { memory, stdin, server } = await session();
    // A tools/call whose content holds a byte that is not UTF-8 (0xFF), split across writes.
    const bad = store(2, "caf\u00e9");
    const at = bad.indexOf(Buffer.from("\u00e9", "utf8"));
    bad[at] = 0xff;
    stdin.write(bad.subarray(0, at + 1));
    stdin.write(bad.subarray(at + 1));
    const refused = await server.next((response) => response.id === null);
    expect(refused).toMatchObject({ error: { code: -32700 } });
    expect((refused.error as { message: string }).message).toMatch(/not valid UTF-8/);

    stdin.write(store(3, "caf\u00e9 au lait"));
    expect(await server.next((response) => response.id === 3)).toHaveProperty("result");
    expect(await memory.get("k2")).toBeNull();
    expect((await memory.get("k3"))?.content).toBe("caf\u00e9 au lait");
    expect(server.received.some((response) => response.id === 2)).toBe(false);
  });

  it("answers malformed JSON and non-JSON-RPC messages with -32700, and keeps serving", async () => {
    const { memory, stdin, server } = await session();
    stdin.write('{"jsonrpc":"2.0","id":4,"method":"tools/list"\n');
    const malformed = await server.next((response) => response.id === null);
    expect(malformed).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    expect((malformed.error as { message: string }).message).toMatch(/^Parse error: Invalid JSON/);

    stdin.write('{"hello":"world"}\n');
    expect(await server.next((response) => response.id === null)).toMatchObject({
      error: { code: -32700, message: expect.stringMatching(/Invalid JSON-RPC message/) },
    });
    // The id is echoed when the message has one, so the client's request fails at once.
    stdin.write('{"jsonrpc":"2.0","id":5,"method":42}\n');
    expect(await server.next((response) => response.id === 5)).toMatchObject({
      error: { code: -32700 },
    });

    stdin.write(store(6, "still served"));
    expect(await server.next((response) => response.id === 6)).toHaveProperty("result");
    expect((await memory.get("k6"))?.content).toBe("still served");
  });

  it("refuses a message over the limit with -32600 and its id, as HTTP answers 413 at the same size", async () => {
    const limit = 2048;
    const { memory, stdin, server } = await session({ maxMessageBytes: limit });
    const http = await startTestServer({ maxBodyBytes: limit });
    const postMcp = (body: Buffer) =>
      fetch(`${http.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${TOKEN_ALL}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: body.subarray(0, -1), // without the line break
      });

    // Exactly at the limit (line break not counted) is accepted on both channels.
    const padTo = (id: number, bytes: number) => {
      const base = store(id, "").length - 1;
      return store(id, "x".repeat(bytes - base));
    };
    const atLimit = padTo(7, limit);
    expect(atLimit.length - 1).toBe(limit);
    stdin.write(atLimit);
    expect(await server.next((response) => response.id === 7)).toHaveProperty("result");
    expect((await postMcp(atLimit)).status).not.toBe(413);

    // One byte more: refused on both, in several writes, and the id found at either end.
    const over = padTo(8, limit + 1);
    expect((await postMcp(over)).status).toBe(413);
    stdin.write(over.subarray(0, 1000));
    stdin.write(over.subarray(1000, 2500));
    stdin.write(over.subarray(2500));
    const refused = await server.next((response) => response.id === 8);
    expect(refused).toMatchObject({ error: { code: -32600 } });
    expect((refused.error as { message: string }).message).toMatch(
      /^PAYLOAD_TOO_LARGE: the message is 2049 bytes; the limit is 2048 bytes.*max_body_bytes/,
    );
    const idLast = Buffer.from(
      `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"memory_store","arguments":{"key":"k9","content":"${"y".repeat(5000)}"}},"id":9}\n`,
    );
    stdin.write(idLast);
    expect(await server.next((response) => response.id === 9)).toMatchObject({
      error: { code: -32600 },
    });

    stdin.write(store(10, "after the refusals"));
    expect(await server.next((response) => response.id === 10)).toHaveProperty("result");
    expect(await memory.get("k8")).toBeNull();
    expect(await memory.get("k9")).toBeNull();
    expect((await memory.get("k10"))?.content).toBe("after the refusals");
  });

  it("finds a top-level id at either end of an over-size message, else answers with id null", () => {
    const id = (head: string, tail: string) =>
      idOfOverSizeMessage(Buffer.from(head), Buffer.from(tail));
    expect(id('{"jsonrpc":"2.0","id":12,"method":"tools/call",', "")).toBe(12);
    expect(id('{"jsonrpc":"2.0","method":"x","params":{', ',"id":"req-1"}\n')).toBe("req-1");
    // A nested "id" is not the message's.
    expect(id('{"jsonrpc":"2.0","method":"x","params":{', '"arguments":{"id":3}}}')).toBeNull();
    expect(id('{"params":{"id":3', "zzz")).toBeNull();
  });
});

describe("`memory mcp` child process and the official SDK client: over-size messages", () => {
  it("refuses 4,000,000 CJK characters (12 MB) with a JSON-RPC error and keeps serving", async () => {
    const client = await connect(inMemoryStdio());
    const content = "\u8a18".repeat(4_000_000); // 記, 3 bytes in UTF-8
    const error = await client
      .callTool({ name: "memory_store", arguments: { key: "huge", content } })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32600);
    expect((error as McpError).message).toMatch(/PAYLOAD_TOO_LARGE.*the limit is 1048576 bytes/);

    const after = await client.callTool({
      name: "memory_store",
      arguments: { key: "small", content: "The user edits code in Neovim" },
    });
    expect(after.isError).toBeFalsy();
    const got = await client.callTool({ name: "memory_get", arguments: { key: "huge" } });
    expect(got.structuredContent).toEqual({ found: false });
  });

  it("takes its limit from MEMORY_SERVER_MAX_BODY_BYTES, like the HTTP server", async () => {
    const client = await connect(inMemoryStdio({ env: { MEMORY_SERVER_MAX_BODY_BYTES: "4096" } }));
    const fits = await client.callTool({
      name: "memory_store",
      arguments: { key: "fits", content: "x".repeat(3000) },
    });
    expect(textOf(fits)).toMatch(/^Stored "fits"/);
    await expect(
      client.callTool({
        name: "memory_store",
        arguments: { key: "no", content: "x".repeat(5000) },
      }),
    ).rejects.toThrow(/the limit is 4096 bytes/);
  });
});
