import { configuredSnapshotPath, type MemoryConfig } from "@memory/api";
import { HYGIENE_JOB, runHygiene } from "./hygiene.js";
import type { ScheduledJob } from "./scheduler.js";
import { writeSnapshot } from "./snapshot-job.js";

const HOUR_MS = 3_600_000;

/** The job-state name of the snapshot job. */
export const SNAPSHOT_JOB = "snapshot";
/** Every job a host may schedule, in the order they run in one tick. */
export const JOB_NAMES = [HYGIENE_JOB, SNAPSHOT_JOB] as const;

/**
 * The jobs a configuration asks for: `hygiene` when `hygiene_enabled`, `snapshot` when
 * `snapshot_enabled`, both every `hygiene_interval_hours` (the snapshot runs after hygiene in the
 * same tick, so it reflects the pruned store).
 */
export function configuredJobs(config: MemoryConfig): ScheduledJob[] {
  const settings = config.memory;
  const intervalMs = settings.hygiene_interval_hours * HOUR_MS;
  const jobs: ScheduledJob[] = [];
  if (settings.hygiene_enabled) {
    jobs.push({
      name: HYGIENE_JOB,
      intervalMs,
      run: ({ memory, now }) => runHygiene(memory, settings, { now, record: false }),
    });
  }
  if (settings.snapshot_enabled) {
    const file = configuredSnapshotPath(config);
    jobs.push({
      name: SNAPSHOT_JOB,
      intervalMs,
      run: ({ memory }) => writeSnapshot(memory, file, { generator: "memory scheduler" }),
    });
  }
  return jobs;
}

/** Each known job's interval under `config` (for status when the job is switched off too). */
export function jobIntervals(config: MemoryConfig): Record<string, number> {
  const intervalMs = config.memory.hygiene_interval_hours * HOUR_MS;
  return Object.fromEntries(JOB_NAMES.map((name) => [name, intervalMs]));
}
