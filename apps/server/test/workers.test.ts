import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mainEntry } from "./backends.js";
import {
  type ClusterServer,
  oneShot,
  oneShotFetch,
  startClusterServer,
} from "./cluster-harness.js";
import { connect } from "./mcp-clients.js";

// `node dist/main.mjs --workers 2`: real worker processes (node:cluster) on one SQLite file.
// Loops are bounded by a number of requests, never by time.

let server: ClusterServer | undefined;
afterEach(async () => {
  if (!server) return;
  await server.stop();
  server.cleanup();
  server = undefined;
});

type Entry = { entry: { key: string; content: string } };

const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";
const schemas: string[] = [];
afterAll(async () => {
  if (schemas.length === 0) return;
  // pg is a dependency of @memory/postgres, not of the server: resolve it from there.
  const require = createRequire(import.meta.resolve("@memory/postgres"));
  const pg = require("pg") as {
    Client: new (options: {
      connectionString: string;
    }) => {
      connect(): Promise<void>;
      query(text: string): Promise<unknown>;
      end(): Promise<void>;
    };
  };
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    for (const schema of schemas.splice(0))
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
});

/**
 * Writes through one worker, then reads (get and recall) through another, until both directions
 * were seen. Each request on its own connection, so the round-robin moves on.
 */
async function expectCrossWorkerReads(url: string): Promise<void> {
  const crossed = new Set<string>();
  for (let i = 0; i < 200 && crossed.size < 2; i++) {
    const content = `cross-worker note ${i} about sailing`;
    const stored = await oneShot(`${url}/v1/memories`, "POST", { key: `note-${i}`, content });
    expect(stored.status).toBe(200);
    const read = await oneShot(`${url}/v1/memories/note-${i}`, "GET");
    expect(read.status).toBe(200);
    expect((JSON.parse(read.body) as Entry).entry.content).toBe(content);
    const recalled = await oneShot(`${url}/v1/recall`, "POST", { query: `note ${i} sailing` });
    expect(recalled.status).toBe(200);
    expect(recalled.body).toContain(content);
    if (stored.worker !== read.worker) crossed.add(`${stored.worker}->${read.worker}`);
  }
  expect(crossed).toEqual(new Set(["1->2", "2->1"]));
}

describe("serve with two workers on one PostgreSQL schema (a pool each)", () => {
  it("reads at once, through either worker, what the other worker acknowledged", async () => {
    const schema = `t_workers_${randomBytes(5).toString("hex")}`;
    schemas.push(schema);
    server = await startClusterServer(2, "", { url: POSTGRES_URL, schema });
    await expectCrossWorkerReads(server.url);
  });
});

describe("serve with two workers on one SQLite file", () => {
  it("reads at once, through either worker, what the other worker acknowledged", async () => {
    server = await startClusterServer(2);
    expect(server.stdout.text).toContain("workers:      2 processes");
    await expectCrossWorkerReads(server.url);
  });

  it("runs each maintenance job once across the workers (the lease job:<name>)", async () => {
    server = await startClusterServer(2, "hygiene_enabled = true\nsnapshot_enabled = true\n");
    const first = await server.waitForLog(/worker 1: jobs tick: (.*)/);
    const second = await server.waitForLog(/worker 2: jobs tick: (.*)/);
    const outcomes = [first[1]!, second[1]!].join(", ");
    for (const job of ["hygiene", "snapshot"]) {
      // Exactly one worker ran it; the other found it done (not-due) or leased (running).
      expect(outcomes.match(new RegExp(`${job}=ran`, "g"))).toHaveLength(1);
      expect(outcomes).toMatch(new RegExp(`${job}=(not-due|leased-elsewhere)`));
    }
    const jobs = await oneShot(`${server.url}/v1/jobs`, "GET");
    const listed = (JSON.parse(jobs.body) as { jobs: { name: string; runs: number }[] }).jobs;
    const ran = listed.filter(({ name }) => name === "hygiene" || name === "snapshot");
    expect(ran.map(({ name, runs }) => [name, runs]).sort()).toEqual([
      ["hygiene", 1],
      ["snapshot", 1],
    ]);
  });

  it("replaces a worker killed mid-request and loses no acknowledged write", async () => {
    server = await startClusterServer(2);
    const { url } = server;
    const victimPid = Number((await server.waitForLog(/worker 1 \(pid (\d+)\) listening/))[1]);
    const acknowledged: string[] = [];
    let failed = 0;
    let killed = false;
    let replaced = false;
    server.waitForLog(/worker (\d+) replaced worker 1\./).then(
      () => {
        replaced = true;
      },
      () => {},
    );
    // Four writers keep requests in flight on both workers; after 40 acknowledgements worker 1
    // gets SIGKILL, then writing goes on until its replacement serves and 40 more succeeded.
    let next = 0;
    let afterReplacement = 0;
    const writer = async () => {
      while (next < 5_000 && afterReplacement < 40) {
        const key = `w-${next++}`;
        try {
          const stored = await oneShot(`${url}/v1/memories`, "POST", { key, content: key });
          if (stored.status === 200) {
            acknowledged.push(key);
            if (replaced) afterReplacement++;
          } else failed++;
        } catch {
          failed++; // the connection died with worker 1: not acknowledged, may or may not exist
        }
        if (!killed && acknowledged.length >= 40) {
          killed = true;
          process.kill(victimPid, "SIGKILL");
        }
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    expect(killed).toBe(true);
    expect(replaced).toBe(true);
    expect(server.stderr.text).toContain(`worker 1 (pid ${victimPid}) died (SIGKILL)`);
    for (const key of acknowledged) {
      const read = await oneShot(`${url}/v1/memories/${key}`, "GET");
      expect(read.status, key).toBe(200);
    }
    // The replacement (worker 3) answers requests.
    const seen = new Set<string>();
    for (let i = 0; i < 50 && !seen.has("3"); i++) {
      seen.add((await oneShot(`${url}/healthz`, "GET")).worker ?? "none");
    }
    expect(seen).toContain("3");
    expect(seen).not.toContain("1");
    expect(failed).toBeLessThan(acknowledged.length);
  });

  it("drains every worker on SIGTERM and exits 0", async () => {
    server = await startClusterServer(2);
    await server.waitForLog(/worker 2 \(pid \d+\) listening/);
    expect(await server.stop()).toBe(0);
    expect(server.stderr.text).toContain("SIGTERM: shutting down 2 worker(s)");
  });

  it("serves the stateless MCP endpoint from both workers to one official MCP client", async () => {
    server = await startClusterServer(2);
    const answeredBy: string[] = [];
    const client = await connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        fetch: oneShotFetch(answeredBy),
      }),
    );
    for (let i = 0; i < 50 && new Set(answeredBy).size < 2; i++) {
      const stored = await client.callTool({
        name: "memory_store",
        arguments: { key: `mcp-${i}`, content: `stored over MCP, call ${i}` },
      });
      expect(stored.isError).toBeFalsy();
      const got = await client.callTool({ name: "memory_get", arguments: { key: `mcp-${i}` } });
      expect(got.structuredContent).toMatchObject({ found: true });
    }
    expect(new Set(answeredBy)).toEqual(new Set(["1", "2"]));
  });
});

describe("serve with one worker, or a store that cannot be shared", () => {
  it("serves in this process with --workers 1: no cluster, no worker header", async () => {
    server = await startClusterServer(1);
    expect(server.stdout.text).toContain("workers:      1 (in this process)");
    const health = await oneShot(`${server.url}/healthz`, "GET");
    expect(health.status).toBe(200);
    expect(health.worker).toBeUndefined();
    expect(await server.stop()).toBe(0);
  });

  it("refuses --workers 2 on a backend that keeps its data in one process", async () => {
    const child = spawn(
      process.execPath,
      [mainEntry, "--port", "0", "--workers", "2", "--allow-unauthenticated-loopback"],
      {
        cwd: tmpdir(),
        env: { PATH: process.env.PATH ?? "", MEMORY_BACKEND: "none" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("error: Cannot serve with 2 workers: the none backend");
    expect(stderr).toContain("Use --workers 1");
  });
});
