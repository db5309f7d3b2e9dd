import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { JobState, Lease, Memory } from "@memory/api";
import { abortableSleep, type Sleep } from "@memory/core";

/** One job the scheduler runs on a cadence. */
export interface ScheduledJob {
  /** Job-state name and lease name (`job:<name>`). */
  name: string;
  /** Run at most this often (measured from the start of the last successful run). */
  intervalMs: number;
  /** Does the work; the result is saved as `lastReport`. `signal` aborts when a stop times out. */
  run(context: { memory: Memory; now: Date; signal: AbortSignal }): Promise<unknown>;
}

export interface SchedulerLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** The scheduler's wait between ticks: `@memory/api`'s `Sleep`. */
export type SchedulerSleep = Sleep;

export interface JobSchedulerOptions {
  memory: Memory;
  jobs: ScheduledJob[];
  /** Clock (default `new Date()`). */
  now?: () => Date;
  /** Waits between ticks; must resolve early when `signal` aborts (default: a timer). */
  sleep?: SchedulerSleep;
  /** Time between ticks (default 60 000 ms). */
  tickMs?: number;
  /**
   * Lease time-to-live (default 1 hour): far above a hygiene or snapshot run, so the lease never
   * lapses mid-run; a host that dies holding it blocks the job for at most this long.
   */
  leaseTtlMs?: number;
  /** Lease holder (default `hostname:pid:random`). */
  holder?: string;
  /** How long `stop()` waits for a running job (default 30 000 ms). */
  drainTimeoutMs?: number;
  logger?: SchedulerLogger;
  /**
   * Called after each tick of the `start()` loop with what it did per job: lets a host with
   * several worker processes say which one ran a job (the server logs it).
   */
  onTick?: (outcomes: Record<string, TickOutcome>) => void;
}

/** A job as `status()` and `GET /v1/jobs` report it. */
export interface JobStatus {
  name: string;
  lastRunAt: string | null;
  /** When the job is next due (`lastRunAt + interval`; now when it never ran or last failed). */
  nextRunAt: string | null;
  lastError: { message: string; at: string } | null;
  lastReport: unknown;
  /** Successful runs recorded in the store (every host). */
  runs: number;
  /** Running in this process now. */
  running: boolean;
}

/** What one tick did per job. */
export type TickOutcome = "ran" | "failed" | "not-due" | "leased-elsewhere" | "running";

const silentLogger: SchedulerLogger = { info() {}, warn() {}, error() {} };

// Keeps the host alive while it waits: `memory worker` has nothing else to do.
const timerSleep: SchedulerSleep = (ms, signal) => abortableSleep(ms, signal);

export function defaultLeaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

function errorOf(state: JobState | null): JobStatus["lastError"] {
  const value = state?.lastError as { message?: unknown; at?: unknown } | undefined;
  if (!value || typeof value.message !== "string" || typeof value.at !== "string") return null;
  return { message: value.message, at: value.at };
}

/**
 * A job's status from its stored state alone: what any process (the CLI, a server that does not
 * run the scheduler) can say. `intervalMs` gives `nextRunAt`; without it the stored one is used.
 */
export function jobStatusFromState(
  name: string,
  state: JobState | null,
  options: { intervalMs?: number; now?: Date; running?: boolean } = {},
): JobStatus {
  const lastRunAt = typeof state?.lastRunAt === "string" ? state.lastRunAt : null;
  const lastError = errorOf(state);
  let nextRunAt = typeof state?.nextRunAt === "string" ? state.nextRunAt : null;
  // The scheduler stores its interval, so a run made elsewhere (`memory hygiene`) still moves
  // nextRunAt for readers that do not know the configuration (GET /v1/jobs).
  const intervalMs =
    options.intervalMs ?? (typeof state?.intervalMs === "number" ? state.intervalMs : undefined);
  if (intervalMs !== undefined) {
    const now = (options.now ?? new Date()).toISOString();
    if (lastRunAt === null || (lastError && lastError.at > lastRunAt)) nextRunAt = now;
    else nextRunAt = new Date(Date.parse(lastRunAt) + intervalMs).toISOString();
  }
  return {
    name,
    lastRunAt,
    nextRunAt,
    lastError,
    lastReport: state?.lastReport ?? null,
    runs: typeof state?.runs === "number" ? state.runs : 0,
    running: options.running === true,
  };
}

/**
 * Runs named jobs on their cadence in a long-lived host (the server, `memory worker`).
 *
 * Due-ness lives in the store (job state `lastRunAt`), so every host on one store shares one
 * cadence; each run holds the lease `job:<name>`, and due-ness is checked again under the lease,
 * so two hosts never run a job at once nor twice for one due time. A failed run is logged and
 * recorded (`lastError`) and, since `lastRunAt` does not move, retried on the next tick.
 */
export class JobScheduler {
  readonly holder: string;
  readonly #memory: Memory;
  readonly #jobs: ScheduledJob[];
  readonly #now: () => Date;
  readonly #sleep: SchedulerSleep;
  readonly #tickMs: number;
  readonly #leaseTtlMs: number;
  readonly #drainTimeoutMs: number;
  readonly #logger: SchedulerLogger;
  readonly #onTick: JobSchedulerOptions["onTick"];
  readonly #running = new Set<string>();
  readonly #stopSleep = new AbortController();
  readonly #abortJobs = new AbortController();
  #loop: Promise<void> | undefined;
  #tick: Promise<unknown> | undefined;
  #stopped = false;

  constructor(options: JobSchedulerOptions) {
    this.#memory = options.memory;
    this.#jobs = options.jobs;
    this.#now = options.now ?? (() => new Date());
    this.#sleep = options.sleep ?? timerSleep;
    this.#tickMs = options.tickMs ?? 60_000;
    this.#leaseTtlMs = options.leaseTtlMs ?? 3_600_000;
    this.#drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
    this.#logger = options.logger ?? silentLogger;
    this.#onTick = options.onTick;
    this.holder = options.holder ?? defaultLeaseHolder();
  }

  get jobNames(): string[] {
    return this.#jobs.map((job) => job.name);
  }

  /** Starts ticking (the first tick at once). Idempotent. */
  start(): void {
    if (this.#loop || this.#stopped) return;
    this.#loop = (async () => {
      while (!this.#stopped) {
        this.#tick = this.tick().then(this.#onTick, (error: unknown) => {
          this.#logger.error("scheduler tick failed; retrying on the next tick", error);
        });
        await this.#tick;
        if (this.#stopped) break;
        await this.#sleep(this.#tickMs, this.#stopSleep.signal);
      }
    })();
  }

  /**
   * Stops ticking and waits for a running job, at most `drainTimeoutMs`; then it aborts the
   * job's signal and returns (its lease expires by itself). Idempotent.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopSleep.abort();
    const loop = this.#loop ?? this.#tick;
    if (!loop) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.#drainTimeoutMs);
    });
    const late = await Promise.race([loop.then(() => false), timedOut]);
    clearTimeout(timer);
    if (late) {
      this.#logger.warn(
        `Jobs still running after ${this.#drainTimeoutMs} ms (${[...this.#running].join(", ")}): stopping without them.`,
      );
      this.#abortJobs.abort();
    }
  }

  /** Runs every due job once (each under its lease). */
  async tick(): Promise<Record<string, TickOutcome>> {
    const outcomes: Record<string, TickOutcome> = {};
    for (const job of this.#jobs) {
      if (this.#stopped && this.#loop) break;
      outcomes[job.name] = await this.#runIfDue(job);
    }
    return outcomes;
  }

  /** Each job's last run, next run, last error, whether it runs here now. */
  async status(): Promise<JobStatus[]> {
    const now = this.#now();
    return Promise.all(
      this.#jobs.map(async (job) =>
        jobStatusFromState(job.name, await this.#memory.getJobState(job.name), {
          intervalMs: job.intervalMs,
          now,
          running: this.#running.has(job.name),
        }),
      ),
    );
  }

  #isDue(job: ScheduledJob, state: JobState | null, now: Date): boolean {
    const lastRunAt = typeof state?.lastRunAt === "string" ? Date.parse(state.lastRunAt) : NaN;
    return Number.isNaN(lastRunAt) || now.getTime() - lastRunAt >= job.intervalMs;
  }

  async #runIfDue(job: ScheduledJob): Promise<TickOutcome> {
    // The lease cannot tell two ticks of this scheduler apart (same holder extends it).
    if (this.#running.has(job.name)) return "running";
    this.#running.add(job.name);
    try {
      return await this.#runLeased(job);
    } finally {
      this.#running.delete(job.name);
    }
  }

  async #runLeased(job: ScheduledJob): Promise<TickOutcome> {
    const memory = this.#memory;
    if (!this.#isDue(job, await memory.getJobState(job.name), this.#now())) return "not-due";
    const lease = await memory.acquireLease(`job:${job.name}`, this.holder, this.#leaseTtlMs);
    if (!lease) return "leased-elsewhere";
    try {
      // Read again under the lease: another host may have run it since the first read.
      const state = (await memory.getJobState(job.name)) ?? {};
      const now = this.#now();
      if (!this.#isDue(job, state, now)) return "not-due";
      try {
        const report = await job.run({ memory, now, signal: this.#abortJobs.signal });
        await this.#record(job, lease, () => {
          const { lastError: _lastError, ...rest } = state;
          return {
            ...rest,
            lastRunAt: now.toISOString(),
            intervalMs: job.intervalMs,
            nextRunAt: new Date(now.getTime() + job.intervalMs).toISOString(),
            lastReport: report ?? null,
            runs: (typeof state.runs === "number" ? state.runs : 0) + 1,
          };
        });
        this.#logger.info(`job ${job.name} ran`);
        return "ran";
      } catch (error) {
        this.#logger.error(`job ${job.name} failed; it runs again on the next tick`, error);
        await this.#record(job, lease, () => ({
          ...state,
          lastError: { message: (error as Error)?.message ?? String(error), at: now.toISOString() },
          intervalMs: job.intervalMs,
          nextRunAt: now.toISOString(),
        })).catch((recordError: unknown) => {
          this.#logger.error(`could not record the failure of job ${job.name}`, recordError);
        });
        return "failed";
      }
    } finally {
      await memory.releaseLease(lease).catch((error: unknown) => {
        this.#logger.warn(
          `could not release the lease of job ${job.name} (it expires by itself): ${(error as Error).message}`,
        );
      });
    }
  }

  /** Writes state only while still holding the lease (re-acquiring extends it, same token). */
  async #record(job: ScheduledJob, lease: Lease, next: () => JobState): Promise<void> {
    const still = await this.#memory.acquireLease(lease.name, this.holder, this.#leaseTtlMs);
    if (!still || still.token !== lease.token) {
      this.#logger.warn(`job ${job.name}: lease lost during the run; its result is not recorded.`);
      return;
    }
    await this.#memory.setJobState(job.name, next());
  }
}
