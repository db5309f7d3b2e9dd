import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, json, requireBuiltCli, Workspace } from "./helpers/run-memory.js";

const HOUR_MS = 3_600_000;
const OLD = "2000-01-01T00:00:00.000Z";
const OLDER = "1999-12-31T00:00:00.000Z";

interface Row {
  before: number;
  eligible: number;
  deleted: number;
  keptByFloor: number;
}
interface Report {
  at: string;
  dryRun: boolean;
  deleted: number;
  rows: Record<string, Row>;
}
interface Job {
  name: string;
  enabled: boolean;
  lastRunAt: string | null;
  nextRunAt: string | null;
  lastError: { message: string } | null;
  runs: number;
}

// Floors: conversation 2 (keeps old2 next to the young entry), daily 0.
const TOML = [
  'embedding_provider = "noop"',
  "conversation_retention_floor = 2",
  "daily_retention_floor = 0",
].join("\n");

const ENTRIES = [
  { key: "core-old", content: "The user prefers tea", category: "core", updatedAt: OLDER },
  { key: "old1", content: "hello there", category: "conversation", updatedAt: OLDER },
  { key: "old2", content: "how are you", category: "conversation", updatedAt: OLD },
  { key: "young", content: "fine thanks", category: "conversation" },
  { key: "day-old", content: "worked on the parser", category: "daily", updatedAt: OLD },
  { key: "notes", content: "custom stays", category: "project", updatedAt: OLDER },
];

const EXPECTED_ROWS = {
  core: { before: 1, eligible: 0, deleted: 0, keptByFloor: 0 },
  conversation: { before: 3, eligible: 2, deleted: 1, keptByFloor: 1 },
  daily: { before: 1, eligible: 1, deleted: 1, keptByFloor: 0 },
  superseded: { before: 0, eligible: 0, deleted: 0, keptByFloor: 0 },
};

describe("memory hygiene and memory jobs", () => {
  const ws = new Workspace("", TOML);
  beforeAll(async () => {
    const input = ENTRIES.map((entry) => JSON.stringify(entry)).join("\n");
    const imported = await ws.run(["import", "--json"], { input });
    expect(imported.code, imported.stderr).toBe(0);
  });
  afterAll(() => ws.remove());

  it("memory jobs --json: hygiene enabled, never ran, due now; snapshot, curate, transcripts off", async () => {
    const result = await ws.run(["jobs", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const { jobs } = json<{ jobs: Job[] }>(result);
    expect(jobs.map((job) => [job.name, job.enabled, job.lastRunAt, job.runs])).toEqual([
      ["hygiene", true, null, 0],
      ["snapshot", false, null, 0],
      ["curate", false, null, 0],
      ["transcripts", false, null, 0],
    ]);
    expect(typeof jobs[0]?.nextRunAt).toBe("string");
  });

  it("--dry-run --json reports per category and deletes nothing", async () => {
    const result = await ws.run(["hygiene", "--dry-run", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = json<Report>(result);
    expect(report.dryRun).toBe(true);
    expect(report.deleted).toBe(2);
    expect(report.rows).toEqual(EXPECTED_ROWS);
    const count = json<{ count: number }>(
      await ws.run(["count", "--json", "-c", "conversation,daily"]),
    );
    expect(count.count).toBe(4);
    // A dry run is not a run: the cadence does not move.
    const { jobs } = json<{ jobs: Job[] }>(await ws.run(["jobs", "--json"]));
    expect(jobs[0]?.lastRunAt).toBeNull();
  });

  it("--dry-run prints a table per category", async () => {
    const result = await ws.run(["hygiene", "--dry-run"]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^category\s+before\s+eligible\s+would delete\s+kept by floor$/);
    expect(lines.find((line) => line.startsWith("conversation"))).toMatch(
      /^conversation\s+3\s+2\s+1\s+1$/,
    );
    expect(result.stdout).toContain("dry run: 2 entries would be deleted; nothing was changed.");
  });

  it("runs hygiene: the same numbers, entries gone, core and custom kept, run recorded", async () => {
    const result = await ws.run(["hygiene", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = json<Report>(result);
    expect(report).toMatchObject({ dryRun: false, deleted: 2, rows: EXPECTED_ROWS });
    const keys = (await ws.run(["export"])).stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { key: string }).key)
      .sort();
    expect(keys).toEqual(["core-old", "notes", "old2", "young"]);
    const { jobs } = json<{ jobs: Job[] }>(await ws.run(["jobs", "--json"]));
    expect(jobs[0]).toMatchObject({
      name: "hygiene",
      lastRunAt: report.at,
      nextRunAt: new Date(Date.parse(report.at) + 12 * HOUR_MS).toISOString(),
      lastError: null,
    });
    const table = await ws.run(["jobs"]);
    expect(table.stdout).toMatch(/^hygiene\s+yes\s+\S+\s+\S+\s+0\s+2 deleted$/m);
  });

  it("memory worker runs due jobs and stops on SIGTERM", async () => {
    requireBuiltCli();
    const worker = new Workspace("", TOML);
    try {
      const child = spawn(process.execPath, [BIN, "worker", "--json"], {
        cwd: worker.dir,
        env: cleanEnv(worker.dir),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      let ran = false;
      for (let attempt = 0; attempt < 600 && !ran; attempt++) {
        const { jobs } = json<{ jobs: Job[] }>(await worker.run(["jobs", "--json"]));
        ran = jobs[0]?.lastRunAt !== null;
        if (!ran) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ran, stderr).toBe(true);
      const { jobs } = json<{ jobs: Job[] }>(await worker.run(["jobs", "--json"]));
      expect(jobs[0]?.runs).toBe(1);
      child.kill("SIGTERM");
      expect(await exited, stderr).toBe(0);
    } finally {
      worker.remove();
    }
  });
});
