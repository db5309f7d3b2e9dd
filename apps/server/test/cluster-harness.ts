import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { mainEntry, requireServerBuilt, requireSqliteBuilt } from "./backends.js";

/** A `node dist/main.mjs --workers <n>` child on a fresh SQLite store, with its output. */
export interface ClusterServer {
  url: string;
  child: ChildProcess;
  stdout: { text: string };
  stderr: { text: string };
  /** Resolves once stderr contains `pattern` (event-driven; rejects if the server exits first). */
  waitForLog(pattern: RegExp): Promise<RegExpExecArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  cleanup(): void;
}

/**
 * `memoryToml` adds `[memory]` lines; `postgres` serves one PostgreSQL schema (a pool per
 * worker) instead of the SQLite file.
 */
export async function startClusterServer(
  workers: number,
  memoryToml = "",
  postgres?: { url: string; schema: string },
): Promise<ClusterServer> {
  requireServerBuilt();
  if (!postgres) requireSqliteBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), "memory-workers-"));
  const config = path.join(dir, "memory.toml");
  const backend = postgres ? "postgres" : "sqlite";
  const table = postgres
    ? `\n[postgres]\nurl = "${postgres.url}"\nschema = "${postgres.schema}"\n`
    : "";
  writeFileSync(
    config,
    `[memory]\nbackend = "${backend}"\ndata_dir = "."\nembedding_provider = "noop"\n${memoryToml}${table}`,
  );
  const child = spawn(
    process.execPath,
    [
      mainEntry,
      "--config",
      config,
      "--port",
      "0",
      "--workers",
      String(workers),
      "--allow-unauthenticated-loopback",
    ],
    { cwd: dir, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const stdout = { text: "" };
  const stderr = { text: "" };
  child.stdout?.on("data", (chunk) => {
    stdout.text += chunk.toString();
  });
  child.stderr?.on("data", (chunk) => {
    stderr.text += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));

  const waitFor = (stream: NodeJS.ReadableStream | null, out: { text: string }, pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out.text);
        if (!match) return;
        stream?.off("data", check);
        child.off("exit", onExit);
        resolve(match);
      };
      const onExit = (code: number | null) => {
        stream?.off("data", check);
        reject(new Error(`the server exited (${code}) before ${pattern}: ${stderr.text}`));
      };
      stream?.on("data", check);
      child.once("exit", onExit);
      check();
    });

  const listening = await waitFor(child.stdout, stdout, /listening on (http:\/\/\S+)/);
  return {
    url: listening[1]!,
    child,
    stdout,
    stderr,
    waitForLog: (pattern) => waitFor(child.stderr, stderr, pattern),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface OneShotResponse {
  status: number;
  worker: string | undefined;
  body: string;
}

/**
 * One request on its own TCP connection (`agent: false`). The cluster hands out connections,
 * not requests, round-robin: a keep-alive client would talk to one worker only.
 */
export function oneShot(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<OneShotResponse> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = httpRequest(
      url,
      {
        method,
        agent: false,
        headers: {
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            worker: response.headers["x-memory-worker"] as string | undefined,
            body: text,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    // A connection the primary had handed to a worker that then died can stay open with no
    // answer: give up on it (an unacknowledged request) instead of waiting forever.
    request.setTimeout(15_000, () => request.destroy(new Error("no answer within 15 s")));
    request.end(payload);
  });
}

/**
 * A `fetch` for the MCP client that sends every request on a new connection (see `oneShot`)
 * and records which worker answered.
 */
export function oneShotFetch(answeredBy: string[]) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const text = typeof init?.body === "string" ? init.body : undefined;
    const response = await new Promise<OneShotResponse & { type: string }>((resolve, reject) => {
      const request = httpRequest(
        String(input),
        { method: init?.method ?? "GET", agent: false, headers },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            body += chunk;
          });
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              worker: res.headers["x-memory-worker"] as string | undefined,
              type: String(res.headers["content-type"] ?? ""),
              body,
            }),
          );
        },
      );
      request.on("error", reject);
      request.end(text);
    });
    if (response.worker !== undefined) answeredBy.push(response.worker);
    const noBody = response.status === 202 || response.status === 204;
    return new Response(noBody ? null : response.body, {
      status: response.status,
      headers: { "content-type": response.type },
    });
  };
}
