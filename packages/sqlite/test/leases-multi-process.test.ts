import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Lease } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath, tempDir } from "./helpers.js";

const WORKER = fileURLToPath(new URL("./fixtures/lease-worker.ts", import.meta.url));

function run(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

/** The markers must be start/end pairs of one token, never interleaved, tokens increasing. */
function checkMarkers(text: string): { sections: number; holders: Set<string> } {
  const lines = text.trim().split("\n");
  expect(lines.length % 2).toBe(0);
  let previous = 0;
  const holders = new Set<string>();
  for (let i = 0; i < lines.length; i += 2) {
    const [startWord, startToken, startHolder] = lines[i]!.split(" ");
    const [endWord, endToken, endHolder] = lines[i + 1]!.split(" ");
    expect([startWord, endWord], `lines ${i}-${i + 1}: an overlap`).toEqual(["start", "end"]);
    expect(endToken).toBe(startToken);
    expect(endHolder).toBe(startHolder);
    expect(Number(startToken)).toBeGreaterThan(previous);
    previous = Number(startToken);
    holders.add(startHolder!);
  }
  return { sections: lines.length / 2, holders };
}

describe("sqlite leases across processes", () => {
  it("lets at most one of 4 racing processes hold the lease at a time, tokens increasing", async () => {
    const path = tempDbPath();
    const markers = join(tempDir(), "markers.txt");
    writeFileSync(markers, "");
    // The schema first, so the children race on the lease, not on the first migration.
    const setup = createSqliteMemory({ path });
    await setup.init();
    const results = await Promise.all(
      ["w0", "w1", "w2", "w3"].map((holder) => run(["race", path, holder, "15", markers]).done),
    );
    for (const result of results) {
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("done\n");
    }
    const { sections, holders } = checkMarkers(readFileSync(markers, "utf8"));
    expect(sections).toBe(60);
    expect(holders).toEqual(new Set(["w0", "w1", "w2", "w3"]));
    await setup.close();
  }, 180_000);

  it("reclaims the lease of a process killed with SIGKILL once it expires", async () => {
    const path = tempDbPath();
    // Both processes run on injected clocks: the test, not the machine's speed, decides whether
    // the dead holder's lease has expired, so both halves are checked on every run.
    const start = Date.parse("2026-11-27T12:00:00.000Z");
    let now = start;
    const memory = createSqliteMemory({ path, now: () => now });
    await memory.init();
    const { child, done } = run(["hold", path, "doomed", "1500", String(start)]);
    const dead = await new Promise<Lease>((resolve, reject) => {
      let seen = "";
      child.stdout!.on("data", (chunk) => {
        seen += chunk;
        if (seen.includes("\n")) resolve(JSON.parse(seen) as Lease);
      });
      child.on("close", () => reject(new Error(`worker ended early: ${seen}`)));
    });
    expect(dead).toMatchObject({
      holder: "doomed",
      expiresAt: new Date(start + 1500).toISOString(),
    });
    child.kill("SIGKILL");
    await done;
    // One millisecond before expiry the dead holder still has it.
    now = start + 1499;
    expect(await memory.acquireLease("held", "survivor", 1000)).toBeNull();
    // At expiry it is reclaimed, with a larger token; the dead holder cannot release it.
    now = start + 1500;
    const taken = await memory.acquireLease("held", "survivor", 1000);
    expect(taken).toMatchObject({ holder: "survivor" });
    expect(taken!.token).toBeGreaterThan(dead.token);
    expect(await memory.releaseLease(dead)).toBe(false);
    await memory.close();
  }, 60_000);
});
