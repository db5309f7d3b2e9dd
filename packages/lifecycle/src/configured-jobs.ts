import path from "node:path";
import type { ChatModel, MemoryConfig } from "@memory/api";
import { configuredSnapshotPath } from "@memory/core";
import { CURATE_JOB, curate } from "./curator.js";
import { HYGIENE_JOB, runHygiene } from "./hygiene.js";
import type { ScheduledJob } from "./scheduler.js";
import { pruneTranscripts, SESSIONS_DIR } from "./session-transcript.js";
import { writeSnapshot } from "./snapshot-job.js";

const HOUR_MS = 3_600_000;

/** The job-state name of the snapshot job. */
export const SNAPSHOT_JOB = "snapshot";
/** The job-state name of the transcript retention job. */
export const TRANSCRIPTS_JOB = "transcripts";
/** Every job a host may schedule, in the order they run in one tick. */
export const JOB_NAMES = [HYGIENE_JOB, SNAPSHOT_JOB, CURATE_JOB, TRANSCRIPTS_JOB] as const;

/** What the host gives the jobs besides the configuration. */
export interface ConfiguredJobsOptions {
  /** The configured chat model (`resolveChatModel` of @memory/embeddings); the curator needs it. */
  chatModel?: ChatModel | null;
}

/** The directory of session transcripts: `<data_dir>/sessions`, absolute. */
export function transcriptDir(config: MemoryConfig): string {
  return path.resolve(config.memory.data_dir, SESSIONS_DIR);
}

/**
 * The jobs a configuration asks for: `hygiene` when `hygiene_enabled`, `snapshot` when
 * `snapshot_enabled`, both every `hygiene_interval_hours` (the snapshot runs after hygiene in the
 * same tick, so it reflects the pruned store); `curate` every `curator_interval_hours` when
 * `curator_enabled` and a chat model is given; `transcripts` (retention of session transcripts)
 * every `hygiene_interval_hours` when `transcripts_enabled`.
 */
export function configuredJobs(
  config: MemoryConfig,
  options: ConfiguredJobsOptions = {},
): ScheduledJob[] {
  const settings = config.memory;
  const intervals = jobIntervals(config);
  const jobs: ScheduledJob[] = [];
  if (settings.hygiene_enabled) {
    jobs.push({
      name: HYGIENE_JOB,
      intervalMs: intervals[HYGIENE_JOB] as number,
      run: ({ memory, now }) => runHygiene(memory, settings, { now, record: false }),
    });
  }
  if (settings.snapshot_enabled) {
    const file = configuredSnapshotPath(config);
    jobs.push({
      name: SNAPSHOT_JOB,
      intervalMs: intervals[SNAPSHOT_JOB] as number,
      run: ({ memory }) => writeSnapshot(memory, file, { generator: "memory scheduler" }),
    });
  }
  const chatModel = options.chatModel;
  if (settings.curator_enabled && chatModel) {
    jobs.push({
      name: CURATE_JOB,
      intervalMs: intervals[CURATE_JOB] as number,
      // The scheduler holds the lease job:curate and records the run itself.
      run: ({ memory, now, signal }) =>
        curate(memory, {
          chatModel,
          now,
          signal,
          maxEntries: settings.curator_max_entries,
          record: false,
          lease: false,
        }),
    });
  }
  if (settings.transcripts_enabled) {
    const dir = transcriptDir(config);
    jobs.push({
      name: TRANSCRIPTS_JOB,
      intervalMs: intervals[TRANSCRIPTS_JOB] as number,
      run: ({ now }) =>
        pruneTranscripts(dir, { retentionDays: settings.transcript_retention_days, now }),
    });
  }
  return jobs;
}

/** Each known job's interval under `config` (for status when the job is switched off too). */
export function jobIntervals(config: MemoryConfig): Record<string, number> {
  const intervalMs = config.memory.hygiene_interval_hours * HOUR_MS;
  return {
    [HYGIENE_JOB]: intervalMs,
    [SNAPSHOT_JOB]: intervalMs,
    [CURATE_JOB]: config.memory.curator_interval_hours * HOUR_MS,
    [TRANSCRIPTS_JOB]: intervalMs,
  };
}
