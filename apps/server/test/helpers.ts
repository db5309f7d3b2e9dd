import type { Memory } from "@memory/api";
import { createInMemoryMemory } from "@memory/testkit";
import { afterEach } from "vitest";
import {
  type ServerHandle,
  type StartServerOptions,
  silentLogger,
  startServer,
} from "../src/index.js";

export const TOKEN_ALL = "token-all-namespaces-0123456789";
export const TOKEN_A = "token-namespace-a-0123456789abc";
export const TOKEN_B = "token-namespace-b-0123456789abc";

export interface TestServer {
  url: string;
  memory: Memory;
  handle: ServerHandle;
  /** fetch + JSON with an optional bearer token. */
  call(
    method: string,
    path: string,
    options?: {
      body?: unknown;
      token?: string;
      raw?: RequestInit["body"];
      headers?: Record<string, string>;
    },
    // biome-ignore lint/suspicious/noExplicitAny: JSON from the wire, checked field by field
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

const running: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.close()));
});

/** A real server on an ephemeral loopback port, over the in-memory reference backend. */
export async function startTestServer(
  options: Partial<StartServerOptions> = {},
): Promise<TestServer> {
  const memory = options.memory ?? createInMemoryMemory();
  const handle = await startServer({
    host: "127.0.0.1",
    port: 0,
    env: {},
    logger: silentLogger,
    tokens: [
      { token: TOKEN_ALL, namespaces: ["*"] },
      { token: TOKEN_A, namespaces: ["a"] },
      { token: TOKEN_B, namespaces: ["b", "shared"] },
    ],
    ...options,
    memory,
  });
  running.push(handle);
  return {
    url: handle.url,
    memory,
    handle,
    async call(method, path, { body, token = TOKEN_ALL, raw, headers = {} } = {}) {
      const response = await fetch(`${handle.url}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        ...(body !== undefined
          ? { body: JSON.stringify(body) }
          : raw !== undefined
            ? { body: raw }
            : {}),
      });
      const text = await response.text();
      let parsed: unknown = text;
      if ((response.headers.get("content-type") ?? "").includes("application/json"))
        parsed = JSON.parse(text);
      return { status: response.status, body: parsed, headers: response.headers };
    },
  };
}

/** Sends raw HTTP/1.1 (for headers fetch will not send: a foreign Host, a wrong Content-Length). */
export async function rawHttp(baseUrl: string, request: string): Promise<string> {
  const { connect } = await import("node:net");
  const url = new URL(baseUrl);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(request));
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString();
    });
    socket.on("end", () => resolve(data));
    socket.on("error", reject);
  });
}
