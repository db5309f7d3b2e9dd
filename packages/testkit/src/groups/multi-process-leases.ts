import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Lease } from "@memory/api";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { UnmetDeclarationError } from "../declarations.js";
import { useInstances } from "../fixture.js";

// Built, this code is in dist/index.mjs beside dist/lease-child.mjs; run from source (the
// testkit's own tests), it is src/groups/*.ts and the child is src/lease-child.ts.
const CHILD = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".ts") ? "../lease-child.ts" : "./lease-child.mjs",
    import.meta.url,
  ),
);

interface Child {
  process: ChildProcess;
  stdout: () => string;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** The start/end markers of the racing children: pairs of one token, never interleaved, tokens increasing. */
function checkMarkers(text: string): { sections: number; holders: Set<string> } {
  const lines = text.trim().split("\n");
  expect(lines.length % 2).toBe(0);
  let previous = 0;
  const holders = new Set<string>();
  for (let i = 0; i < lines.length; i += 2) {
    const [startWord, startToken, startHolder] = lines[i]!.split(" ");
    const [endWord, endToken, endHolder] = lines[i + 1]!.split(" ");
    expect([startWord, endWord], `lines ${i}-${i + 1}: two holders at once`).toEqual([
      "start",
      "end",
    ]);
    expect(endToken).toBe(startToken);
    expect(endHolder).toBe(startHolder);
    expect(Number(startToken)).toBeGreaterThan(previous);
    previous = Number(startToken);
    holders.add(startHolder!);
  }
  return { sections: lines.length / 2, holders };
}

/**
 * Leases across processes: child processes open the same store (`childOpener` with the shared
 * store's `location`) and race for one lease, or hold one and are killed. Expiry is judged on
 * clocks the test sets (the killed holder's and the survivor's), never on the machine's speed.
 */
export function multiProcessLeasesGroup(options: ConformanceOptions): void {
  describe(`${options.name}: leases across processes`, {
    timeout: Math.max(options.timeoutMs ?? 60_000, 180_000),
  }, () => {
    const instances = useInstances(options);
    const children: ChildProcess[] = [];
    const dirs: string[] = [];
    afterEach(() => {
      for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    });
    afterAll(() => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    /** A shared store with what a child needs to open it (the precondition of the group). */
    const sharedForChildren = async () => {
      const shared = await instances.shared();
      const opener = options.childOpener;
      if (!opener || shared.location === undefined) {
        throw new UnmetDeclarationError(
          options.name,
          "multiProcess",
          !opener
            ? "the childOpener option is missing"
            : "createShared() returned a store without location",
          "pass childOpener (a module exporting openShared(location, { now })) and give the shared store a location",
        );
      }
      const run = (args: string[]): Child => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", CHILD, opener, shared.location!, ...args],
          {
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        children.push(child);
        let stdout = "";
        let stderr = "";
        child.stdout!.on("data", (chunk) => {
          stdout += chunk;
        });
        child.stderr!.on("data", (chunk) => {
          stderr += chunk;
        });
        const done = new Promise<{ code: number | null; stdout: string; stderr: string }>(
          (resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })),
        );
        return { process: child, stdout: () => stdout, done };
      };
      return { shared, run };
    };

    it("lets at most one of three racing processes hold the lease at a time, tokens increasing", async () => {
      const { shared, run } = await sharedForChildren();
      // Opened (and migrated) first, so the children race on the lease, not on the schema.
      const setup = await shared.open();
      await setup.count();
      const dir = mkdtempSync(join(tmpdir(), "memory-leases-"));
      dirs.push(dir);
      const markers = join(dir, "markers.txt");
      writeFileSync(markers, "");
      const results = await Promise.all(
        ["p0", "p1", "p2"].map((holder) => run(["race", holder, "10", markers]).done),
      );
      for (const result of results) {
        expect(result.stderr).toBe("");
        expect(result.code).toBe(0);
        expect(result.stdout).toBe("done\n");
      }
      const { sections, holders } = checkMarkers(readFileSync(markers, "utf8"));
      expect(sections).toBe(30);
      expect(holders).toEqual(new Set(["p0", "p1", "p2"]));
    });

    it("reclaims the lease of a process killed with SIGKILL once it expires, with a greater token", async () => {
      const { shared, run } = await sharedForChildren();
      const start = Date.parse("2030-01-01T12:00:00.000Z");
      let now = start;
      const memory = await shared.openWith({ now: () => now });
      await memory.count();
      const child = run(["hold", "doomed", "1500", String(start)]);
      const dead = await new Promise<Lease>((resolve, reject) => {
        child.process.stdout!.on("data", () => {
          if (child.stdout().includes("\n")) resolve(JSON.parse(child.stdout()) as Lease);
        });
        child.done.then((result) =>
          reject(new Error(`the holder ended early: ${result.stdout} ${result.stderr}`)),
        );
      });
      expect(dead).toMatchObject({
        holder: "doomed",
        expiresAt: new Date(start + 1500).toISOString(),
      });
      child.process.kill("SIGKILL");
      await child.done;
      // One millisecond before expiry the dead holder still has it.
      now = start + 1499;
      expect(await memory.acquireLease("held", "survivor", 1000)).toBeNull();
      // At expiry it is reclaimed, with a greater token; the dead holder cannot release it.
      now = start + 1500;
      const taken = await memory.acquireLease("held", "survivor", 1000);
      expect(taken).toMatchObject({ holder: "survivor" });
      expect(taken!.token).toBeGreaterThan(dead.token);
      expect(await memory.releaseLease(dead)).toBe(false);
      expect(await memory.releaseLease(taken!)).toBe(true);
    });
  });
}
