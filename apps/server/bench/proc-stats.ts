/** What the benches read of processes and the machine from /proc and os (Linux). */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";

// Linux reports utime and stime in clock ticks; USER_HZ is 100 on every mainstream kernel.
const TICK_MS = 10;

/** The fields of a /proc `stat` file after the command name (which may hold spaces). */
function statFields(pid: number | string, file = `/proc/${pid}/stat`): string[] {
  const stat = readFileSync(file, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

const usedMs = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) * TICK_MS;

/** CPU time (ms) the process has used so far, all its threads: utime + stime. */
export function cpuMs(pid: number): number {
  return usedMs(statFields(pid));
}

/**
 * CPU time (ms) of the process's main thread alone (the event loop; its thread id is its pid):
 * what is left of {@link cpuMs} is V8's collector and compiler threads, libuv's pool and any
 * worker thread (the background checkpoint).
 */
export function mainThreadCpuMs(pid: number): number {
  return usedMs(statFields(pid, `/proc/${pid}/task/${pid}/stat`));
}

/** `pid` and its children (node:cluster workers), from /proc's parent ids. */
export function processTree(pid: number): number[] {
  const children = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((child) => {
      try {
        return Number(statFields(child)[1]) === pid;
      } catch {
        return false; // ended meanwhile
      }
    });
  return [pid, ...children.map(Number)];
}

/** The load average (1/5/15 min), for the tables' context. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
