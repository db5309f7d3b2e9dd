import { type Lease, type Memory, MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith } from "../declarations.js";
import { caught, useInstances } from "../fixture.js";

/** A clock the test moves by hand; backends judge lease expiry by it. */
function manualClock(start = Date.parse("2030-01-01T00:00:00.000Z")) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
    iso: (offset: number) => new Date(time + offset).toISOString(),
  };
}

/** Leases (at most one holder, fencing tokens, expiry by the injected clock) and job state. */
export function leasesGroup(options: ConformanceOptions): void {
  describe(`${options.name}: leases and job state`, {
    timeout: options.timeoutMs ?? 60_000,
  }, () => {
    const instances = useInstances(options);
    const withClock = async () => {
      const clock = manualClock();
      const memory = await instances.createWith({ now: clock.now });
      return { clock, memory };
    };

    it("grants a free lease, with an expiry from the memory's clock", async () => {
      const { clock, memory } = await withClock();
      const lease = await memory.acquireLease("hygiene", "worker-1", 1000);
      expect(lease).toMatchObject({
        name: "hygiene",
        holder: "worker-1",
        expiresAt: clock.iso(1000),
      });
      expect(lease!.token).toBeGreaterThanOrEqual(1);
      expect(Number.isSafeInteger(lease!.token)).toBe(true);
    });

    it("refuses a second holder while the lease is held", async () => {
      const { clock, memory } = await withClock();
      await memory.acquireLease("hygiene", "worker-1", 1000);
      expect(await memory.acquireLease("hygiene", "worker-2", 1000)).toBeNull();
      clock.advance(999);
      expect(await memory.acquireLease("hygiene", "worker-2", 1000)).toBeNull();
      // Other names are independent.
      expect(await memory.acquireLease("curator", "worker-2", 1000)).not.toBeNull();
    });

    it("extends the lease for the same holder, keeping its token", async () => {
      const { clock, memory } = await withClock();
      const first = (await memory.acquireLease("hygiene", "worker-1", 1000))!;
      clock.advance(800);
      const again = (await memory.acquireLease("hygiene", "worker-1", 1000))!;
      expect(again.token).toBe(first.token);
      expect(again.expiresAt).toBe(clock.iso(1000));
      clock.advance(800);
      // Past the first expiry, but the extension still holds.
      expect(await memory.acquireLease("hygiene", "worker-2", 1000)).toBeNull();
    });

    it("releases for its holder, and the next holder gets a greater token", async () => {
      const { memory } = await withClock();
      const first = (await memory.acquireLease("hygiene", "worker-1", 60_000))!;
      expect(await memory.releaseLease(first)).toBe(true);
      const second = (await memory.acquireLease("hygiene", "worker-2", 60_000))!;
      expect(second.token).toBeGreaterThan(first.token);
      // Releasing twice, or with a lease that is not the current one, changes nothing.
      expect(await memory.releaseLease(first)).toBe(false);
      expect(await memory.releaseLease({ ...second, holder: "worker-3" })).toBe(false);
      expect(await memory.releaseLease({ ...second, token: second.token + 1 })).toBe(false);
      expect(await memory.acquireLease("hygiene", "worker-1", 60_000)).toBeNull();
    });

    it("hands an expired lease over; the stale holder can no longer release it", async () => {
      const { clock, memory } = await withClock();
      const stale = (await memory.acquireLease("hygiene", "worker-1", 1000))!;
      clock.advance(1000);
      const fresh = (await memory.acquireLease("hygiene", "worker-2", 1000))!;
      expect(fresh.holder).toBe("worker-2");
      expect(fresh.token).toBeGreaterThan(stale.token);
      expect(await memory.releaseLease(stale)).toBe(false);
      expect(await memory.acquireLease("hygiene", "worker-1", 1000)).toBeNull();
      expect(await memory.releaseLease(fresh)).toBe(true);
    });

    it("increases the token on every hand-over, including a re-acquire after expiry or release", async () => {
      const { clock, memory } = await withClock();
      const tokens: number[] = [];
      for (const holder of ["a", "b", "b", "a", "a", "c"]) {
        const lease = (await memory.acquireLease("job", holder, 100))!;
        expect(lease.holder).toBe(holder);
        tokens.push(lease.token);
        if (tokens.length % 2 === 0) await memory.releaseLease(lease);
        else clock.advance(100);
      }
      for (let i = 1; i < tokens.length; i++) expect(tokens[i]).toBeGreaterThan(tokens[i - 1]!);
    });

    itWith(options, "sharedStore")("shares leases between instances over one store", async () => {
      const clock = manualClock();
      const shared = await instances.shared();
      const one = await shared.openWith({ now: clock.now });
      const two = await shared.openWith({ now: clock.now });
      const lease = (await one.acquireLease("hygiene", "process-1", 1000))!;
      expect(await two.acquireLease("hygiene", "process-2", 1000)).toBeNull();
      clock.advance(1001);
      const taken = (await two.acquireLease("hygiene", "process-2", 1000))!;
      expect(taken.token).toBeGreaterThan(lease.token);
      expect(await one.releaseLease(lease)).toBe(false);
      expect(await one.acquireLease("hygiene", "process-1", 1000)).toBeNull();
    });

    itWith(options, "sharedStore")(
      "lets one of four instances over one store hold the lease at a time, tokens increasing",
      async () => {
        const shared = await instances.shared();
        const memories: Memory[] = [];
        for (let i = 0; i < 4; i++) memories.push(await shared.open());
        const markers: { kind: "start" | "end"; token: number; holder: string }[] = [];
        let inside = 0;
        let mostInside = 0;
        // Turns of the event loop, not wall time: the work inside and the wait after a refusal
        // only let the other instances' queries interleave.
        const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));
        await Promise.all(
          memories.map(async (memory, i) => {
            const holder = `instance-${i}`;
            for (let wins = 0; wins < 8; ) {
              // A TTL far longer than the work: a hand-over here only ever follows a release.
              const lease = await memory.acquireLease("race", holder, 60_000);
              if (!lease) {
                await yieldTurn();
                continue;
              }
              inside++;
              mostInside = Math.max(mostInside, inside);
              markers.push({ kind: "start", token: lease.token, holder });
              await yieldTurn();
              markers.push({ kind: "end", token: lease.token, holder });
              inside--;
              expect(await memory.releaseLease(lease)).toBe(true);
              wins++;
            }
          }),
        );
        expect(mostInside).toBe(1);
        expect(markers).toHaveLength(64);
        let previous = 0;
        for (let i = 0; i < markers.length; i += 2) {
          const [start, end] = [markers[i]!, markers[i + 1]!];
          expect([start.kind, end.kind]).toEqual(["start", "end"]);
          expect(end.token).toBe(start.token);
          expect(start.token).toBeGreaterThan(previous);
          previous = start.token;
        }
      },
    );

    it("gives exactly one of many concurrent acquirers the lease", async () => {
      const { memory } = await withClock();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => memory.acquireLease("race", `worker-${i}`, 60_000)),
      );
      expect(results.filter((lease) => lease !== null)).toHaveLength(1);
    });

    it("refuses bad names, holders, durations and leases with INVALID_INPUT", async () => {
      const { memory } = await withClock();
      const bad: [string, () => Promise<unknown>][] = [
        ["empty name", () => memory.acquireLease("", "h", 1000)],
        ["NUL in name", () => memory.acquireLease("a\u0000b", "h", 1000)],
        ["257-character name", () => memory.acquireLease("n".repeat(257), "h", 1000)],
        ["empty holder", () => memory.acquireLease("job", "", 1000)],
        ["NUL in holder", () => memory.acquireLease("job", "h\u0000", 1000)],
        ["ttl 0", () => memory.acquireLease("job", "h", 0)],
        ["ttl over a day", () => memory.acquireLease("job", "h", 86_400_001)],
        ["fractional ttl", () => memory.acquireLease("job", "h", 1.5)],
        ["release without token", () => memory.releaseLease({ name: "job", holder: "h" } as Lease)],
        ["empty job name", () => memory.getJobState("")],
        ["job state not an object", () => memory.setJobState("job", [] as never)],
      ];
      for (const [label, call] of bad) {
        const error = await caught(call);
        expect(MemoryError.hasCode(error, "INVALID_INPUT"), label).toBe(true);
      }
      expect(
        await memory.acquireLease("n".repeat(256), "h".repeat(256), 86_400_000),
      ).not.toBeNull();
    });

    it("round-trips job state as JSON, overwrites it whole, and keeps jobs apart", async () => {
      const memory = await instances.create();
      expect(await memory.getJobState("hygiene")).toBeNull();
      const state = {
        lastRunAt: "2030-01-01T00:00:00.000Z",
        lastReport: { deleted: 3, byCategory: { daily: { eligible: 4, deleted: 3 } } },
        cursor: null,
        keys: ["a", "ü", "日本", "emoji 🎉"],
        ratio: 0.25,
        enabled: false,
        nested: { deep: { deeper: [1, [2, [3]]] } },
      };
      await memory.setJobState("hygiene", state);
      expect(await memory.getJobState("hygiene")).toEqual(state);
      await memory.setJobState("hygiene", { lastRunAt: "2030-01-02T00:00:00.000Z" });
      expect(await memory.getJobState("hygiene")).toEqual({
        lastRunAt: "2030-01-02T00:00:00.000Z",
      });
      expect(await memory.getJobState("curator")).toBeNull();
      await memory.setJobState("curator", {});
      expect(await memory.getJobState("curator")).toEqual({});
      expect(await memory.getJobState("hygiene")).toEqual({
        lastRunAt: "2030-01-02T00:00:00.000Z",
      });
    });

    itWith(options, "sharedStore")(
      "keeps job state per store: shared instances see it, a fresh store does not",
      async () => {
        const shared = await instances.shared();
        const one = await shared.open();
        const two = await shared.open();
        await one.setJobState("hygiene", { lastRunAt: "2030-01-01T00:00:00.000Z" });
        expect(await two.getJobState("hygiene")).toEqual({ lastRunAt: "2030-01-01T00:00:00.000Z" });
        const other: Memory = await instances.create();
        expect(await other.getJobState("hygiene")).toBeNull();
      },
    );
  });
}
