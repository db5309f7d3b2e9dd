import type { Memory } from "@memory/api";
import { JOB_NAMES, jobStatusFromState } from "@memory/lifecycle";

/**
 * Every maintenance job's last run, next run, last report and last error, read from the job
 * state in the store (so every server and `memory worker` on it). Not scoped: the numbers cover
 * every namespace, and any caller may read them.
 */
export async function listJobs(memory: Memory) {
  return Promise.all(
    JOB_NAMES.map(async (name) => {
      const { running: _running, ...status } = jobStatusFromState(
        name,
        await memory.getJobState(name),
      );
      return status;
    }),
  );
}
