import type { Memory } from "@memory/api";
import { createInMemoryMemory, InMemoryStore, manualSleep } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { JobScheduler, type ScheduledJob } from "../src/index.js";
import { fresh } from "./fresh-memory.js";

const HOUR_MS = 3_600_000;
const START = Date.parse("2026-06-01T00:00:00.000Z");

function fakeClock() {
  let now = START;
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

interface CountingJob {
  runs: number;
  failNext: number;
  definition: ScheduledJob;
}

function countingJob(name: string, intervalMs = 12 * HOUR_MS): CountingJob {
  const job: CountingJob = {
    runs: 0,
    failNext: 0,
    definition: {
      name,
      intervalMs,
      run: async () => {
        job.runs += 1;
        if (job.failNext > 0) {
          job.failNext -= 1;
          throw new Error(`${name} broke`);
        }
        return { run: job.runs };
      },
    },
  };
  return job;
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error("condition never became true");
}

describe("JobScheduler", () => {
  it("runs a job when it never ran, skips it until the interval has passed, then runs it again", async () => {
    const memory = fresh();
    const clock = fakeClock();
    const job = countingJob("hygiene");
    const scheduler = new JobScheduler({ memory, jobs: [job.definition], now: clock.now });
    expect(await scheduler.tick()).toEqual({ hygiene: "ran" });
    expect(await scheduler.tick()).toEqual({ hygiene: "not-due" });
    clock.advance(12 * HOUR_MS - 1);
    expect(await scheduler.tick()).toEqual({ hygiene: "not-due" });
    clock.advance(1);
    expect(await scheduler.tick()).toEqual({ hygiene: "ran" });
    expect(job.runs).toBe(2);
    const [status] = await scheduler.status();
    expect(status).toEqual({
      name: "hygiene",
      lastRunAt: new Date(START + 12 * HOUR_MS).toISOString(),
      nextRunAt: new Date(START + 24 * HOUR_MS).toISOString(),
      lastError: null,
      lastReport: { run: 2 },
      runs: 2,
      running: false,
    });
  });

  it("reads due-ness from the store: a second scheduler on it does not run a job that just ran", async () => {
    const memory = fresh();
    const clock = fakeClock();
    const job = countingJob("hygiene");
    await new JobScheduler({ memory, jobs: [job.definition], now: clock.now }).tick();
    const other = new JobScheduler({ memory, jobs: [job.definition], now: clock.now });
    expect(await other.tick()).toEqual({ hygiene: "not-due" });
    expect(job.runs).toBe(1);
  });

  it("records a failed run (lastError), retries it on the next tick, and clears the error on success", async () => {
    const memory = fresh();
    const clock = fakeClock();
    const job = countingJob("hygiene");
    job.failNext = 1;
    const errors: string[] = [];
    const scheduler = new JobScheduler({
      memory,
      jobs: [job.definition],
      now: clock.now,
      logger: { info() {}, warn() {}, error: (message) => errors.push(message) },
    });
    expect(await scheduler.tick()).toEqual({ hygiene: "failed" });
    expect(errors).toHaveLength(1);
    const [failed] = await scheduler.status();
    expect(failed?.lastError).toEqual({ message: "hygiene broke", at: clock.now().toISOString() });
    expect(failed?.lastRunAt).toBeNull();
    expect(failed?.nextRunAt).toBe(clock.now().toISOString());
    clock.advance(60_000);
    expect(await scheduler.tick()).toEqual({ hygiene: "ran" });
    const [recovered] = await scheduler.status();
    expect(recovered?.lastError).toBeNull();
    expect(recovered?.lastRunAt).toBe(clock.now().toISOString());
  });

  it("keeps ticking after a failed run in its loop (the host does not crash) and retries it", async () => {
    const memory = fresh();
    const clock = fakeClock();
    const job = countingJob("hygiene");
    job.failNext = 2;
    const sleep = manualSleep();
    const scheduler = new JobScheduler({
      memory,
      jobs: [job.definition],
      now: clock.now,
      sleep: sleep.sleep,
    });
    scheduler.start();
    await until(() => sleep.waiting === 1);
    expect(job.runs).toBe(1);
    sleep.wake();
    await until(() => job.runs === 2 && sleep.waiting === 1);
    sleep.wake();
    await until(() => job.runs === 3 && sleep.waiting === 1);
    const [status] = await scheduler.status();
    expect(status?.runs).toBe(1);
    expect(status?.lastError).toBeNull();
    sleep.wake();
    await until(() => sleep.waiting === 1);
    expect(job.runs).toBe(3); // not due any more
    await scheduler.stop();
  });

  it("keeps ticking when the store itself fails (job state unreadable)", async () => {
    const memory = fresh();
    let fail = true;
    const broken = new Proxy(memory, {
      get(target, property) {
        if (property === "getJobState") {
          return async (name: string) => {
            if (fail) throw new Error("store down");
            return target.getJobState(name);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as Memory;
    const job = countingJob("hygiene");
    const sleep = manualSleep();
    const errors: string[] = [];
    const scheduler = new JobScheduler({
      memory: broken,
      jobs: [job.definition],
      now: fakeClock().now,
      sleep: sleep.sleep,
      logger: { info() {}, warn() {}, error: (message) => errors.push(message) },
    });
    scheduler.start();
    await until(() => sleep.waiting === 1);
    expect(errors.length).toBeGreaterThan(0);
    fail = false;
    sleep.wake();
    await until(() => job.runs === 1 && sleep.waiting === 1);
    await scheduler.stop();
  });

  it("skips a job whose lease another holder has, and runs it once the lease is released", async () => {
    const memory = fresh();
    const job = countingJob("hygiene");
    const lease = await memory.acquireLease("job:hygiene", "someone-else", HOUR_MS);
    const scheduler = new JobScheduler({ memory, jobs: [job.definition], now: fakeClock().now });
    expect(await scheduler.tick()).toEqual({ hygiene: "leased-elsewhere" });
    await memory.releaseLease(lease!);
    expect(await scheduler.tick()).toEqual({ hygiene: "ran" });
    expect(await memory.acquireLease("job:hygiene", "someone-else", HOUR_MS)).not.toBeNull();
  });

  it("stop() waits for the running job to finish and records it", async () => {
    const memory = fresh();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const scheduler = new JobScheduler({
      memory,
      now: fakeClock().now,
      sleep: manualSleep().sleep,
      jobs: [
        {
          name: "slow",
          intervalMs: HOUR_MS,
          run: async () => {
            started = true;
            await gate;
            return { done: true };
          },
        },
      ],
    });
    scheduler.start();
    await until(() => started);
    expect((await scheduler.status())[0]?.running).toBe(true);
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await memory.getJobState("slow")).toMatchObject({ lastReport: { done: true }, runs: 1 });
  });

  it("stop() gives up after drainTimeoutMs and aborts the job's signal", async () => {
    const memory = fresh();
    let aborted = false;
    let started = false;
    const scheduler = new JobScheduler({
      memory,
      now: fakeClock().now,
      drainTimeoutMs: 10,
      logger: { info() {}, warn() {}, error() {} },
      jobs: [
        {
          name: "stuck",
          intervalMs: HOUR_MS,
          run: ({ signal }) => {
            started = true;
            return new Promise((_resolve, reject) => {
              signal.addEventListener("abort", () => {
                aborted = true;
                reject(new Error("aborted"));
              });
            });
          },
        },
      ],
    });
    scheduler.start();
    await until(() => started);
    await scheduler.stop();
    expect(aborted).toBe(true);
  });

  it("a job already running in this scheduler is not started again by an overlapping tick", async () => {
    const memory = fresh();
    const job = countingJob("hygiene");
    const scheduler = new JobScheduler({ memory, jobs: [job.definition], now: fakeClock().now });
    const outcomes = await Promise.all([scheduler.tick(), scheduler.tick()]);
    expect(job.runs).toBe(1);
    expect(outcomes.map((outcome) => outcome.hygiene).sort()).toEqual(["ran", "running"]);
  });

  it("two schedulers on one store (separate instances) run each job exactly once per due time", async () => {
    const store = new InMemoryStore();
    const clock = fakeClock();
    const a = createInMemoryMemory({ store });
    const b = createInMemoryMemory({ store });
    try {
      const hygiene = countingJob("hygiene");
      const snapshot = countingJob("snapshot");
      const jobs = [hygiene.definition, snapshot.definition];
      const one = new JobScheduler({ memory: a, jobs, now: clock.now });
      const two = new JobScheduler({ memory: b, jobs, now: clock.now });
      for (let round = 1; round <= 20; round++) {
        await Promise.all([one.tick(), two.tick(), one.tick(), two.tick()]);
        expect(hygiene.runs).toBe(round);
        expect(snapshot.runs).toBe(round);
        clock.advance(12 * HOUR_MS);
      }
      expect((await a.getJobState("hygiene"))?.runs).toBe(20);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
