import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { createInMemoryMemory } from "@memory/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpApp } from "../src/http-app.js";
import { silentLogger } from "../src/index.js";
import { createUiHandler, UI_CONTENT_SECURITY_POLICY } from "../src/ui-static.js";

// One port per server: a kept-alive client socket to a closed server must not be reused.
let nextPort = 19070;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A real server on a loopback port, with a token and the fixture inspector. */
async function startUiServer(): Promise<{ url: string }> {
  const app = createHttpApp({
    memory: createInMemoryMemory(),
    tokens: [],
    logger: silentLogger,
    uiDir: fixtureDir(),
  });
  const server = createAdaptorServer({ fetch: app.fetch });
  const port = nextPort++;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        // Clients keep connections alive; the next test listens on the same port.
        (server as import("node:http").Server).closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${port}` };
}

/** A tiny built inspector, so the test does not depend on the Vite build having run. */
function fixtureDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "memory-ui-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>Memory inspector</title>");
  writeFileSync(join(dir, "assets", "index-abc.js"), "console.log(1);");
  writeFileSync(join(dir, "assets", "index-abc.css"), "body{}");
  // Outside the ui dir: what a traversal would try to reach.
  writeFileSync(join(dir, "..", "memory-ui-secret.txt"), "secret");
  return dir;
}

/** Sends the path byte for byte: fetch and URL would normalize the dot segments away. */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const TRAVERSALS = [
  "/ui/../memory-ui-secret.txt",
  "/ui/%2e%2e/memory-ui-secret.txt",
  "/ui/%2E%2E%2Fmemory-ui-secret.txt",
  "/ui/assets/..%2f..%2fmemory-ui-secret.txt",
  "/ui/..%5cmemory-ui-secret.txt",
  "/ui/%252e%252e/memory-ui-secret.txt",
  "/ui/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
  "/ui/%00index.html",
];

describe("web inspector static files", () => {
  it("serves index.html at /ui without a token, with a same-origin CSP", async () => {
    const server = await startUiServer();
    for (const path of ["/ui", "/ui/"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("content-security-policy")).toBe(UI_CONTENT_SECURITY_POLICY);
      expect(await response.text()).toContain("Memory inspector");
    }
    expect(UI_CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
  });

  it("serves assets with their content types and a long cache", async () => {
    const server = await startUiServer();
    const script = await fetch(`${server.url}/ui/assets/index-abc.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("content-security-policy")).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(script.headers.get("cache-control")).toContain("immutable");
    const style = await fetch(`${server.url}/ui/assets/index-abc.css`);
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await fetch(`${server.url}/ui/assets/missing.js`)).status).toBe(404);
  });

  it("redirects / to /ui", async () => {
    const server = await startUiServer();
    const response = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/ui");
  });

  it("answers 404 to traversal attempts, plain and encoded", async () => {
    const server = await startUiServer();
    for (const path of TRAVERSALS) {
      const response = await rawGet(server.url, path);
      expect(response.status, path).not.toBe(200);
      expect(response.body, path).not.toContain("secret");
    }
    const serve = createUiHandler(fixtureDir());
    for (const path of TRAVERSALS) {
      expect(serve(path).status, path).toBe(404);
    }
  });

  it("keeps the API behind the token while the files are public", async () => {
    const server = await startUiServer();
    expect((await fetch(`${server.url}/ui`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/namespaces`)).status).toBe(401);
  });
});
