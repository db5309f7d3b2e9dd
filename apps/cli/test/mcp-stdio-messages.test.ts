import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, Workspace } from "./helpers/run-memory.js";

describe("memory mcp: messages refused before a tool runs", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    await ws.run(["store", "The user prefers TypeScript", "--key", "lang"]);
  });
  afterAll(() => ws.remove());

  it("answers an over-size line with -32600 and malformed JSON with -32700, and keeps serving", async () => {
    const child = spawn(process.execPath, [BIN, "mcp"], {
      cwd: ws.dir,
      // The same setting as the HTTP server's body limit.
      env: { ...process.env, MEMORY_SERVER_MAX_BODY_BYTES: "65536" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const lines = createInterface({ input: child.stdout });
    const responses: Record<string, unknown>[] = [];
    lines.on("line", (line) => responses.push(JSON.parse(line) as Record<string, unknown>));
    const send = (message: object) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    send({
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "test", version: "0" },
      },
    });
    send({ method: "notifications/initialized" });
    // 12 MB of CJK text: over the 10 MiB at which the SDK alone would stop reading stdin.
    send({
      id: 2,
      method: "tools/call",
      params: {
        name: "memory_store",
        arguments: { key: "huge", content: "\u8a18".repeat(4_000_000) },
      },
    });
    child.stdin.write('{"jsonrpc":"2.0","id":3,"method":\n');
    send({
      id: 4,
      method: "tools/call",
      params: { name: "memory_get", arguments: { key: "lang" } },
    });
    while (responses.length < 4) await once(lines, "line");
    child.stdin.end();
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(responses.find((response) => response.id === 2)).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/the limit is 65536 bytes/) },
    });
    expect(responses.find((response) => response.id === null)).toMatchObject({
      error: { code: -32700 },
    });
    expect(JSON.stringify(responses.find((response) => response.id === 4))).toContain(
      "The user prefers TypeScript",
    );
  });
});
