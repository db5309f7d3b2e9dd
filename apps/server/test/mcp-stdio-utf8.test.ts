import { PassThrough } from "node:stream";
import { createInMemoryMemory } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { runMcpStdio, silentLogger } from "../src/index.js";

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
    async next(predicate: (message: Record<string, unknown>) => boolean) {
      for (let attempt = 0; attempt < 2000; attempt++) {
        const found = received.find(predicate);
        if (found) return found;
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error(`no such response among ${JSON.stringify(received)}`);
    },
  };
}

const message = (body: Record<string, unknown>) =>
  Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", ...body })}\n`, "utf8");

describe("MCP over stdio: bad bytes", () => {
  it("answers a message that is not valid UTF-8 with a parse error and stores nothing", async () => {
    const memory = createInMemoryMemory();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const handle = await runMcpStdio({ memory, stdin, stdout, logger: silentLogger });
    const server = responses(stdout);
    stdin.write(
      message({
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "test", version: "1" },
        },
      }),
    );
    await server.next((response) => response.id === 1);
    stdin.write(message({ method: "notifications/initialized" }));

    // A tools/call whose content holds a byte that is not UTF-8 (0xFF), split across writes.
    const store = (id: number, content: string) =>
      message({
        id,
        method: "tools/call",
        params: { name: "memory_store", arguments: { key: `k${id}`, content } },
      });
    const bad = store(2, "caf\u00e9");
    const at = bad.indexOf(Buffer.from("\u00e9", "utf8"));
    bad[at] = 0xff;
    stdin.write(bad.subarray(0, at + 1));
    stdin.write(bad.subarray(at + 1));
    const refused = await server.next((response) => response.id === null);
    expect(refused).toMatchObject({ error: { code: -32700 } });
    expect((refused.error as { message: string }).message).toMatch(/not valid UTF-8/);

    stdin.write(store(3, "caf\u00e9 au lait"));
    const stored = await server.next((response) => response.id === 3);
    expect(stored).toHaveProperty("result");
    expect(await memory.get("k2")).toBeNull();
    expect((await memory.get("k3"))?.content).toBe("caf\u00e9 au lait");
    expect(server.received.some((response) => response.id === 2)).toBe(false);
    stdin.end();
    await handle.closed;
  });
});
