import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { Lease } from "@memory/api";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresMemory, type PostgresMemory } from "../src/index.js";
import { schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("lease");
afterAll(() => schemas.dropAll());

const HOLDER = fileURLToPath(new URL("./fixtures/lease-holder.ts", import.meta.url));

describe("postgres leases across pools and processes", () => {
  it("lets at most one of 4 memories on separate pools hold the lease at a time", async () => {
    const schema = schemas.next();
    const memories: PostgresMemory[] = [];
    for (let i = 0; i < 4; i++)
      memories.push(
        createPostgresMemory({ connectionString: TEST_URL, schema, maxConnections: 2 }),
      );
    try {
      await memories[0]!.init();
      const markers: { kind: "start" | "end"; token: number; holder: string }[] = [];
      let inside = 0;
      let maxInside = 0;
      await Promise.all(
        memories.map(async (memory, i) => {
          const holder = `pool-${i}`;
          let wins = 0;
          while (wins < 15) {
            // A TTL far longer than the work: a hand-over here only ever follows a release.
            const lease = await memory.acquireLease("race", holder, 60_000);
            if (!lease) {
              await sleep(1 + Math.random() * 2);
              continue;
            }
            inside++;
            maxInside = Math.max(maxInside, inside);
            markers.push({ kind: "start", token: lease.token, holder });
            await sleep(2);
            markers.push({ kind: "end", token: lease.token, holder });
            inside--;
            expect(await memory.releaseLease(lease)).toBe(true);
            wins++;
          }
        }),
      );
      expect(maxInside).toBe(1);
      expect(markers).toHaveLength(120);
      let previous = 0;
      for (let i = 0; i < markers.length; i += 2) {
        const start = markers[i]!;
        const end = markers[i + 1]!;
        expect([start.kind, end.kind]).toEqual(["start", "end"]);
        expect(end.token).toBe(start.token);
        expect(start.token).toBeGreaterThan(previous);
        previous = start.token;
      }
    } finally {
      await Promise.all(memories.map((memory) => memory.close()));
    }
  }, 180_000);

  it("reclaims the lease of a process killed with SIGKILL once it expires", async () => {
    const schema = schemas.next();
    // Both processes run on injected clocks: the test, not the machine's speed, decides whether
    // the dead holder's lease has expired, so both halves are checked on every run.
    const start = Date.parse("2026-11-27T12:00:00.000Z");
    let now = start;
    const memory = createPostgresMemory({
      connectionString: TEST_URL,
      schema,
      maxConnections: 2,
      now: () => now,
    });
    try {
      await memory.init();
      const child = spawn(
        process.execPath,
        ["--import", "tsx", HOLDER, TEST_URL, schema, "doomed", "1500", String(start)],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      const closed = new Promise((resolve) => child.on("close", resolve));
      let dead: Lease;
      try {
        dead = await new Promise<Lease>((resolve, reject) => {
          let seen = "";
          let errors = "";
          child.stderr!.on("data", (chunk) => {
            errors += chunk;
          });
          child.stdout!.on("data", (chunk) => {
            seen += chunk;
            if (seen.includes("\n")) resolve(JSON.parse(seen) as Lease);
          });
          child.on("close", () => reject(new Error(`holder ended early: ${seen} ${errors}`)));
        });
      } finally {
        child.kill("SIGKILL");
        await closed;
      }
      expect(dead).toMatchObject({
        holder: "doomed",
        expiresAt: new Date(start + 1500).toISOString(),
      });
      // One millisecond before expiry the dead holder still has it.
      now = start + 1499;
      expect(await memory.acquireLease("held", "survivor", 1000)).toBeNull();
      // At expiry it is reclaimed, with a larger token; the dead holder cannot release it.
      now = start + 1500;
      const taken = await memory.acquireLease("held", "survivor", 1000);
      expect(taken).toMatchObject({ holder: "survivor" });
      expect(taken!.token).toBeGreaterThan(dead.token);
      expect(await memory.releaseLease(dead)).toBe(false);
    } finally {
      await memory.close();
    }
  }, 60_000);
});
