import {
  type JobState,
  type Lease,
  leaseFromRow,
  serializeJobState,
  validateLease,
  validateLeaseName,
  validateLeaseTtl,
} from "@memory/api";
import { type LeaseTable, StateFiles } from "./files/state-files.js";
import type { TreeLock } from "./files/tree-lock.js";

/**
 * Leases and job state of a memory tree: `leases.json` and `jobs.json` in the hidden state
 * directory, read and written under the tree lock, expiry judged by the memory's clock.
 */
export class LeaseStore {
  readonly #state: StateFiles;
  readonly #lock: TreeLock;
  readonly #now: () => number;

  constructor(dir: string, lock: TreeLock, now: () => number) {
    this.#state = new StateFiles(dir);
    this.#lock = lock;
    this.#now = now;
  }

  acquire(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    const leaseName = validateLeaseName(name);
    const leaseHolder = validateLeaseName(holder, "lease holder");
    const ttl = validateLeaseTtl(ttlMs);
    return this.#lock.run(() => {
      const leases = this.#state.read<LeaseTable>("leases.json", {});
      const now = this.#now();
      const current = leases[leaseName];
      const free = !current || current.expiresAtMs <= now;
      if (!free && current.holder !== leaseHolder) return null;
      const next = {
        holder: leaseHolder,
        token: free ? (current?.token ?? 0) + 1 : current.token,
        expiresAtMs: now + ttl,
      };
      leases[leaseName] = next;
      this.#state.write("leases.json", leases);
      return leaseFromRow({ name: leaseName, ...next });
    });
  }

  release(lease: Lease): Promise<boolean> {
    const { name, holder, token } = validateLease(lease);
    return this.#lock.run(() => {
      const leases = this.#state.read<LeaseTable>("leases.json", {});
      const current = leases[name];
      if (!current || current.holder !== holder || current.token !== token) return false;
      // Kept, expired, so the next holder's token still goes up.
      current.expiresAtMs = 0;
      this.#state.write("leases.json", leases);
      return true;
    });
  }

  getJobState(job: string): JobState | null {
    const name = validateLeaseName(job, "job name");
    const text = this.#state.read<Record<string, string>>("jobs.json", {})[name];
    return text === undefined ? null : (JSON.parse(text) as JobState);
  }

  async setJobState(job: string, state: JobState): Promise<void> {
    const name = validateLeaseName(job, "job name");
    const text = serializeJobState(state);
    await this.#lock.run(() => {
      const jobs = this.#state.read<Record<string, string>>("jobs.json", {});
      jobs[name] = text;
      this.#state.write("jobs.json", jobs);
    });
  }
}
