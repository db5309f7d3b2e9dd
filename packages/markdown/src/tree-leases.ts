import { type DriverLeases, leaseFromRow } from "@memory/api";
import { type LeaseTable, StateFiles } from "./files/state-files.js";
import type { TreeLock } from "./files/tree-lock.js";

/**
 * Leases and job state of a memory tree: `leases.json` and `jobs.json` in the hidden state
 * directory, read and written under the tree lock (the facade validates names, TTLs and JSON).
 */
export function treeLeases(
  dir: string,
  lock: TreeLock,
  ready: () => Promise<unknown>,
): DriverLeases {
  const state = new StateFiles(dir);
  // The state files live in the tree: it is created (as by a write) before the first lease.
  const locked = async <T>(body: () => T) => {
    await ready();
    return lock.run(body);
  };
  return {
    acquire: (name, holder, ttlMs, nowMs) =>
      locked(() => {
        const leases = state.read<LeaseTable>("leases.json", {});
        const current = leases[name];
        const free = !current || current.expiresAtMs <= nowMs;
        if (!free && current.holder !== holder) return null;
        const next = {
          holder,
          token: free ? (current?.token ?? 0) + 1 : current.token,
          expiresAtMs: nowMs + ttlMs,
        };
        leases[name] = next;
        state.write("leases.json", leases);
        return leaseFromRow({ name, ...next });
      }),
    release: ({ name, holder, token }) =>
      locked(() => {
        const leases = state.read<LeaseTable>("leases.json", {});
        const current = leases[name];
        if (!current || current.holder !== holder || current.token !== token) return false;
        // Kept, expired, so the next holder's token still goes up.
        current.expiresAtMs = 0;
        state.write("leases.json", leases);
        return true;
      }),
    readJobState: async (job) => state.read<Record<string, string>>("jobs.json", {})[job] ?? null,
    writeJobState: (job, json) =>
      locked(() => {
        const jobs = state.read<Record<string, string>>("jobs.json", {});
        jobs[job] = json;
        state.write("jobs.json", jobs);
      }),
  };
}
