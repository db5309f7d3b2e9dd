import type { DriverUsage, UsageEvent } from "@memory/api";
import { describe, expect, it } from "vitest";
import { UsageRecorder } from "../src/usage/usage-recorder.js";

const surfaced = (recallId: string): UsageEvent => ({
  recallId,
  namespace: "default",
  key: `k-${recallId}`,
  kind: "surfaced",
  at: "2026-11-28T10:00:00.000Z",
  source: "recall",
});

/** A driver's usage that records each batch `surface` is given, failing when told to. */
function usageStore(failing: Set<string> = new Set()) {
  const batches: string[][] = [];
  const usage = {
    surface: async (events: readonly UsageEvent[]) => {
      const ids = events.map((event) => event.recallId);
      if (ids.some((id) => failing.has(id))) throw new Error("disk full");
      batches.push(ids);
    },
  } as unknown as DriverUsage;
  return { usage, batches };
}

/** A sleep the test ends: each wait is a pending promise until `end` (or its abort). */
function heldSleep() {
  const waits: { ms: number; end: () => void }[] = [];
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const end = () => resolve();
      signal.addEventListener("abort", end, { once: true });
      waits.push({ ms, end });
    });
  return { sleep, waits };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("usage recorder", () => {
  it("writes the events of the recalls within one wait as one batch", async () => {
    const { usage, batches } = usageStore();
    const { sleep, waits } = heldSleep();
    const recorder = new UsageRecorder(usage, () => {}, { delayMs: 50, sleep });
    recorder.add([surfaced("r1")]);
    await turn();
    recorder.add([surfaced("r2")]);
    recorder.add([surfaced("r3")]);
    await turn();
    expect(batches).toEqual([]);
    expect(waits.map((wait) => wait.ms)).toEqual([50]);
    waits[0]!.end();
    await turn();
    expect(batches).toEqual([["r1", "r2", "r3"]]);
    // Events after the write wait again, in a batch of their own.
    recorder.add([surfaced("r4")]);
    await turn();
    expect(waits).toHaveLength(2);
    waits[1]!.end();
    await turn();
    expect(batches).toEqual([["r1", "r2", "r3"], ["r4"]]);
  });

  it("drains at once, without waiting out the delay", async () => {
    const { usage, batches } = usageStore();
    const { sleep } = heldSleep();
    const recorder = new UsageRecorder(usage, () => {}, { delayMs: 60_000, sleep });
    recorder.add([surfaced("r1")]);
    recorder.add([surfaced("r2")]);
    // No wait ever ends by itself here: only the drain can have written them.
    await recorder.drain();
    expect(batches).toEqual([["r1", "r2"]]);
    recorder.add([surfaced("r3")]);
    await recorder.drain();
    expect(batches).toEqual([["r1", "r2"], ["r3"]]);
  });

  it("logs a failed batch and still writes the next one", async () => {
    const { usage, batches } = usageStore(new Set(["bad"]));
    const logged: string[] = [];
    const recorder = new UsageRecorder(usage, (message) => logged.push(message), {
      sleep: heldSleep().sleep,
    });
    recorder.add([surfaced("bad")]);
    await recorder.drain();
    recorder.add([surfaced("good")]);
    await recorder.drain();
    expect(batches).toEqual([["good"]]);
    expect(logged).toEqual(["usage: 1 recall event(s) not recorded: disk full"]);
  });
});
