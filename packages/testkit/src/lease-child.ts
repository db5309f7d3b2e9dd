// A child process of the `multiProcessLeases` conformance group (run with `--import tsx`, so the
// backend's opener may be TypeScript). Usage:
//   lease-child <opener> <location> race <holder> <wins> <markers>
//       takes the lease "race" <wins> times; each time appends "start <token> <holder>", works a
//       moment, appends "end <token> <holder>" to <markers>, releases it; prints "done"
//   lease-child <opener> <location> hold <holder> <ttlMs> <nowMs>
//       takes the lease "held" with its clock stopped at <nowMs>, prints it as JSON, then stays
//       alive without releasing it (the test kills it)
// <opener> is a module whose `openShared(location, { now })` opens the backend's store.
import { appendFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import type { Memory } from "@memory/api";

type Opener = (location: string, context: { now?: () => number }) => Memory | Promise<Memory>;

const [opener, location, mode, holder, count, last] = process.argv.slice(2);
const module = (await import(pathToFileURL(opener!).href)) as { openShared?: Opener };
if (typeof module.openShared !== "function")
  throw new Error(`${opener} must export openShared(location, { now }) returning a Memory`);
// `hold` runs on an injected clock, so the test decides exactly when the lease expires.
const clock = mode === "hold" ? Number(last) : undefined;
const memory = await module.openShared(location!, clock === undefined ? {} : { now: () => clock });

if (mode === "race") {
  let wins = 0;
  while (wins < Number(count)) {
    // A TTL far longer than the work: a hand-over here only ever follows a release.
    const lease = await memory.acquireLease("race", holder!, 60_000);
    if (!lease) {
      // Lose the race for a moment; how long does not matter to any assertion.
      await sleep(1 + Math.random() * 2);
      continue;
    }
    appendFileSync(last!, `start ${lease.token} ${holder}\n`);
    await sleep(2);
    appendFileSync(last!, `end ${lease.token} ${holder}\n`);
    if (!(await memory.releaseLease(lease))) throw new Error(`lost lease ${lease.token}`);
    wins++;
    await sleep(Math.random() * 2);
  }
  await memory.close();
  process.stdout.write("done\n");
} else if (mode === "hold") {
  const lease = await memory.acquireLease("held", holder!, Number(count));
  process.stdout.write(`${JSON.stringify(lease)}\n`);
  setInterval(() => {}, 60_000);
} else {
  throw new Error(`unknown mode ${mode}: use race or hold`);
}
