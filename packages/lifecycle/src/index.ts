export {
  AUTOSAVE_REPLY_CHARS,
  type AutosaveSkip,
  type AutosaveTurnInput,
  type AutosaveTurnOptions,
  type AutosaveTurnResult,
  autosaveKey,
  autosaveTurn,
} from "./autosave-turn.js";
export {
  configuredJobs,
  JOB_NAMES,
  jobIntervals,
  SNAPSHOT_JOB,
} from "./configured-jobs.js";
export {
  type HydrateOptions,
  type HydrateReport,
  hydrateFromSnapshot,
  hydrationMarkerPath,
  shouldAutoHydrate,
} from "./hydrate.js";
export {
  HYGIENE_JOB,
  type HygieneReport,
  type HygieneRow,
  type HygieneSettings,
  type RunHygieneOptions,
  runHygiene,
} from "./hygiene.js";
export {
  buildMemoryContext,
  MEMORY_CONTEXT_DEFAULTS,
  MEMORY_CONTEXT_HEADER,
  type MemoryContext,
  type MemoryContextOptions,
} from "./memory-context.js";
export {
  defaultLeaseHolder,
  JobScheduler,
  type JobSchedulerOptions,
  type JobStatus,
  jobStatusFromState,
  type ScheduledJob,
  type SchedulerLogger,
  type SchedulerSleep,
  type TickOutcome,
} from "./scheduler.js";
export {
  SNAPSHOT_FILE_NAME,
  type SnapshotReport,
  type WriteSnapshotOptions,
  writeSnapshot,
} from "./snapshot-job.js";
