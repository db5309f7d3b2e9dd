import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/** How long a process group gets to end after SIGTERM before it is sent SIGKILL. */
const KILL_GRACE_MS = 200;

// Groups still running, killed when this process exits: a detached group would outlive it.
const runningGroups = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // A negative pid addresses the whole process group (the command and everything it forked).
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // ESRCH: the group has already ended.
  }
}

function killRunningGroups(): void {
  for (const pid of runningGroups) signalGroup(pid, "SIGKILL");
}

/**
 * Starts `command args...` without a shell, stdin closed, as the leader of a new process group,
 * so that {@link killProcessGroup} also reaches the children it forks (a shell wrapper that
 * runs the real program without `exec` is the usual way CLIs are installed).
 */
export function spawnInOwnGroup(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
): ChildProcessWithoutNullStreams {
  const child = spawn(command, args, {
    shell: false,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
    windowsHide: true,
  }) as unknown as ChildProcessWithoutNullStreams;
  const { pid } = child;
  if (pid !== undefined) {
    if (!exitHookInstalled) {
      process.once("exit", killRunningGroups);
      exitHookInstalled = true;
    }
    runningGroups.add(pid);
    child.once("exit", () => runningGroups.delete(pid));
  }
  return child;
}

/**
 * Ends the child's whole process group: SIGTERM now, SIGKILL after a short grace for whatever
 * ignored it (an orphaned grandchild included), and stops reading its pipes, which a process
 * that escaped the group could otherwise hold open forever.
 */
export function killProcessGroup(child: ChildProcessWithoutNullStreams): void {
  const { pid } = child;
  child.stdout.destroy();
  child.stderr.destroy();
  if (pid === undefined) return;
  signalGroup(pid, "SIGTERM");
  setTimeout(() => {
    signalGroup(pid, "SIGKILL");
    runningGroups.delete(pid);
  }, KILL_GRACE_MS);
}
