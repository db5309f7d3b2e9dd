import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Memory } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { runHygiene, type ScheduledJob } from "@memory/lifecycle";
import { createInMemoryMemory, manualSleep } from "@memory/testkit";
import { afterAll, describe, expect, it } from "vitest";
import {
  EXPECTED_ROWS,
  NOW,
  SETTINGS,
  seedHygieneScenario,
} from "../../../packages/lifecycle/test/hygiene-scenario.js";
import { requireSqliteBuilt } from "./backends.js";
import { startTestServer, TOKEN_A } from "./helpers.js";

const HOUR_MS = 3_600_000;
const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error("condition never became true");
}

function countingJobs() {
  const runs: Record<string, number> = { hygiene: 0, snapshot: 0 };
  const jobs: ScheduledJob[] = Object.keys(runs).map((name) => ({
    name,
    intervalMs: 12 * HOUR_MS,
    run: async () => {
      runs[name] = (runs[name] ?? 0) + 1;
      // Yield a few times so the other server's tick interleaves with this run.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      return { run: runs[name] };
    },
  }));
  return { runs, jobs };
}

interface Backend {
  name: string;
  /** Two separate Memory instances on one store. */
  open(): Promise<{ first: Memory; second: Memory; cleanup(): Promise<void> }>;
}

const sqlite: Backend = {
  name: "sqlite (one file)",
  async open() {
    requireSqliteBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), "memory-jobs-"));
    const { createSqliteMemory } = (await import("@memory/sqlite")) as {
      createSqliteMemory(options: { path: string }): Memory;
    };
    const file = path.join(dir, "brain.db");
    const first = createSqliteMemory({ path: file });
    const second = createSqliteMemory({ path: file });
    return {
      first,
      second,
      async cleanup() {
        await first.close();
        await second.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const schemas: string[] = [];
const postgres: Backend = {
  name: "postgres (one schema)",
  async open() {
    const { createPostgresMemory } = (await import("@memory/postgres")) as {
      createPostgresMemory(options: { connectionString: string; schema: string }): Memory;
    };
    const schema = `t_jobs_${randomBytes(5).toString("hex")}`;
    schemas.push(schema);
    const first = createPostgresMemory({ connectionString: POSTGRES_URL, schema });
    const second = createPostgresMemory({ connectionString: POSTGRES_URL, schema });
    return {
      first,
      second,
      async cleanup() {
        await first.close();
        await second.close();
      },
    };
  },
};

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

describe("GET /v1/jobs", () => {
  it("reports each job's last run, next run, report and error from the job state", async () => {
    const memory = createInMemoryMemory();
    const server = await startTestServer({ memory });
    const report = await runHygiene(memory, SETTINGS, { now: NOW });
    await memory.setJobState("snapshot", {
      nextRunAt: "2026-06-01T00:00:00.000Z",
      lastError: { message: "disk full", at: "2026-06-01T00:00:00.000Z" },
    });
    const response = await server.call("GET", "/v1/jobs", { token: TOKEN_A });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      jobs: [
        {
          name: "hygiene",
          lastRunAt: NOW.toISOString(),
          nextRunAt: null,
          lastError: null,
          lastReport: report,
          runs: 0,
        },
        {
          name: "snapshot",
          lastRunAt: null,
          nextRunAt: "2026-06-01T00:00:00.000Z",
          lastError: { message: "disk full", at: "2026-06-01T00:00:00.000Z" },
          lastReport: null,
          runs: 0,
        },
        ...["curate", "transcripts"].map((name) => ({
          name,
          lastRunAt: null,
          nextRunAt: null,
          lastError: null,
          lastReport: null,
          runs: 0,
        })),
      ],
    });
  });

  it("needs a token like every /v1 route", async () => {
    const server = await startTestServer();
    expect((await server.call("GET", "/v1/jobs", { token: "" })).status).toBe(401);
  });

  it("shows the run of the server's own scheduler (hygiene from the configuration)", async () => {
    const memory = createInMemoryMemory();
    const sleep = manualSleep();
    const server = await startTestServer({
      memory,
      config: defaultConfig(),
      jobs: { sleep: sleep.sleep, now: () => NOW },
    });
    expect(server.handle.scheduler?.jobNames).toEqual(["hygiene"]);
    await until(() => sleep.waiting === 1);
    const { body } = await server.call("GET", "/v1/jobs");
    expect(body.jobs[0]).toMatchObject({
      name: "hygiene",
      lastRunAt: NOW.toISOString(),
      nextRunAt: new Date(NOW.getTime() + 12 * HOUR_MS).toISOString(),
      runs: 1,
      lastError: null,
    });
    // close() stops the scheduler (its sleep is aborted) before it closes anything else.
    await server.handle.close();
  });

  it("runs no scheduler when the memory is passed in and jobs are not asked for", async () => {
    const server = await startTestServer();
    expect(server.handle.scheduler).toBeUndefined();
  });
});

describe.each([sqlite, postgres])("maintenance jobs on $name", (backend) => {
  it("hygiene reports and deletes exactly what the reference backend does", async () => {
    const { first, cleanup } = await backend.open();
    try {
      await seedHygieneScenario(first);
      const dry = await runHygiene(first, SETTINGS, { now: NOW, dryRun: true });
      expect(dry.rows).toEqual(EXPECTED_ROWS);
      expect(await first.count({ categories: ["conversation"], includeSuperseded: true })).toBe(7);
      const report = await runHygiene(first, SETTINGS, { now: NOW });
      expect(report.rows).toEqual(EXPECTED_ROWS);
      expect(await first.count({ categories: ["conversation"], includeSuperseded: true })).toBe(3);
      expect(await first.count({ categories: ["core"], includeSuperseded: true })).toBe(3);
      expect((await first.getJobState("hygiene"))?.lastRunAt).toBe(NOW.toISOString());
    } finally {
      await cleanup();
    }
  });

  it("two servers with separate memories on one store run each job exactly once per tick", async () => {
    const { first, second, cleanup } = await backend.open();
    try {
      let now = Date.parse("2026-06-01T00:00:00.000Z");
      const clock = () => new Date(now);
      const { runs, jobs } = countingJobs();
      const sleeps = [manualSleep(), manualSleep()] as const;
      const one = await startTestServer({
        memory: first,
        jobs: { jobs, now: clock, sleep: sleeps[0].sleep },
      });
      const two = await startTestServer({
        memory: second,
        jobs: { jobs, now: clock, sleep: sleeps[1].sleep },
      });
      const parked = () => sleeps[0].waiting === 1 && sleeps[1].waiting === 1;
      await until(parked);
      expect(runs).toEqual({ hygiene: 1, snapshot: 1 });
      const rounds = 10;
      for (let round = 2; round <= rounds; round++) {
        now += 12 * HOUR_MS;
        sleeps[0].wakeAll();
        sleeps[1].wakeAll();
        await until(parked);
        expect(runs).toEqual({ hygiene: round, snapshot: round });
      }
      // A tick that is not due runs nothing on either server.
      sleeps[0].wakeAll();
      sleeps[1].wakeAll();
      await until(parked);
      expect(runs).toEqual({ hygiene: rounds, snapshot: rounds });
      for (const server of [one, two]) {
        const { body } = await server.call("GET", "/v1/jobs");
        // curate and transcripts are known but were not scheduled here.
        expect(body.jobs.map((job: { runs: number }) => job.runs)).toEqual([rounds, rounds, 0, 0]);
      }
      await one.handle.close();
      await two.handle.close();
    } finally {
      await cleanup();
    }
  });
});
