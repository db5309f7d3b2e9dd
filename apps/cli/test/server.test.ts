import { spawn } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, Workspace } from "./helpers/run-memory.js";

describe("memory serve and memory mcp (delegating to @memory/server)", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    await ws.run(["store", "The user prefers TypeScript", "--key", "lang"]);
  });
  afterAll(() => ws.remove());

  it("serves the HTTP API on the configured store and stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "serve", "--port", "0", "--allow-unauthenticated-loopback", "--json"],
      {
        cwd: ws.dir,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const { url } = JSON.parse(line) as { url: string };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/v1/memories/lang`);
      expect(response.status).toBe(200);
      expect(JSON.stringify(await response.json())).toContain("The user prefers TypeScript");
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  });

  it("names the web inspector in its start line, and the inspector answers there", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "serve", "--port", "0", "--workers", "1", "--allow-unauthenticated-loopback"],
      { cwd: ws.dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const inspector = /web inspector: (http:\/\/127\.0\.0\.1:\d+\/ui)\b/.exec(line)?.[1];
      expect(inspector, line).toBeDefined();
      expect((await fetch(inspector!)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
    await once(child, "exit");
  });

  it("serves with --workers 2: both worker processes answer, and SIGTERM drains both", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "serve", "--port", "0", "--workers", "2", "--allow-unauthenticated-loopback", "--json"],
      { cwd: ws.dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const { url, workers } = JSON.parse(line) as { url: string; workers: number };
      expect(workers).toBe(2);
      // A new connection per request: the cluster hands out connections round-robin.
      const workerOf = () =>
        new Promise<string>((resolve, reject) => {
          request(`${url}/v1/memories/lang`, { agent: false }, (response) => {
            response.resume();
            expect(response.statusCode).toBe(200);
            resolve(String(response.headers["x-memory-worker"]));
          })
            .on("error", reject)
            .end();
        });
      const seen = new Set<string>();
      for (let i = 0; i < 50 && seen.size < 2; i++) seen.add(await workerOf());
      expect(seen).toEqual(new Set(["1", "2"]));
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  });

  it("answers MCP over stdio and exits when stdin closes", async () => {
    const child = spawn(process.execPath, [BIN, "mcp"], {
      cwd: ws.dir,
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
    send({
      id: 2,
      method: "tools/call",
      params: { name: "memory_get", arguments: { key: "lang" } },
    });
    while (responses.length < 2) await once(lines, "line");
    child.stdin.end();
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(responses[0]).toMatchObject({ id: 1, result: { serverInfo: expect.any(Object) } });
    expect(JSON.stringify(responses[1])).toContain("The user prefers TypeScript");
  });
});
