import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { MemoryConfig } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { afterEach, describe, expect, it } from "vitest";
import { configuredJobs, JobScheduler } from "../src/index.js";
import { fresh } from "./fresh-memory.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function config(memory: Partial<MemoryConfig["memory"]>): MemoryConfig {
  const base = defaultConfig();
  return { ...base, memory: { ...base.memory, ...memory } };
}

describe("configuredJobs", () => {
  it("schedules hygiene by default, every hygiene_interval_hours, and no snapshot", () => {
    const jobs = configuredJobs(config({ hygiene_interval_hours: 6 }));
    expect(jobs.map((job) => [job.name, job.intervalMs])).toEqual([["hygiene", 6 * 3_600_000]]);
  });

  it("schedules nothing when hygiene and snapshots are off", () => {
    expect(configuredJobs(config({ hygiene_enabled: false }))).toEqual([]);
  });

  it("with snapshot_enabled, the snapshot job writes the core entries to snapshot_path", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "memory-jobs-"));
    dirs.push(dir);
    const file = path.join(dir, "snap.md");
    const memory = fresh();
    await memory.store({ key: "lang", content: "Prefers TypeScript", category: "core" });
    await memory.store({ key: "chat", content: "hello", category: "conversation" });
    const jobs = configuredJobs(config({ snapshot_enabled: true, snapshot_path: file }));
    expect(jobs.map((job) => job.name)).toEqual(["hygiene", "snapshot"]);
    const outcomes = await new JobScheduler({ memory, jobs }).tick();
    expect(outcomes).toEqual({ hygiene: "ran", snapshot: "ran" });
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toContain("Prefers TypeScript");
    expect(await memory.getJobState("snapshot")).toMatchObject({
      lastReport: { entries: 1, path: file },
      runs: 1,
    });
  });
});
