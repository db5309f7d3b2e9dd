import { resolveChatModel } from "@memory/embeddings";
import { JOB_NAMES, type JobStatus, jobIntervals, jobStatusFromState } from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";
import { renderTable } from "../output/table.js";

function summary(status: Pick<JobStatus, "lastError" | "lastReport">): string {
  if (status.lastError) return `failed: ${status.lastError.message}`;
  const report = status.lastReport as {
    deleted?: unknown;
    entries?: unknown;
    merged?: unknown;
  } | null;
  if (typeof report?.deleted === "number") return `${report.deleted} deleted`;
  // curate: deleted and merged are lists; transcripts: deleted is a list of session ids.
  if (Array.isArray(report?.deleted) && Array.isArray(report?.merged))
    return `${report.deleted.length} deleted, ${report.merged.length} merged`;
  if (Array.isArray(report?.deleted)) return `${report.deleted.length} deleted`;
  if (typeof report?.entries === "number") return `${report.entries} entries`;
  return "";
}

/**
 * `memory jobs`: each maintenance job's last run, next run and last error, read from the job
 * state in the store (so it shows what every server and worker on this store did).
 */
const jobs: CommandHandler = async (context) => {
  const { config } = context.config();
  const { memory } = await context.open("none");
  const intervals = jobIntervals(config);
  const settings = config.memory;
  const enabled: Record<string, boolean> = {
    hygiene: settings.hygiene_enabled,
    snapshot: settings.snapshot_enabled,
    // The curator runs only where a chat model is configured.
    curate: settings.curator_enabled && resolveChatModel(settings) !== null,
    transcripts: settings.transcripts_enabled,
  };
  const now = new Date();
  const statuses = await Promise.all(
    JOB_NAMES.map(async (name) => {
      const { running: _running, ...status } = jobStatusFromState(
        name,
        await memory.getJobState(name),
        { intervalMs: intervals[name]!, now },
      );
      return { ...status, enabled: enabled[name] === true };
    }),
  );
  context.output.result({ jobs: statuses }, () =>
    renderTable(statuses, [
      { header: "job", value: (job) => job.name },
      { header: "enabled", value: (job) => (job.enabled ? "yes" : "no") },
      { header: "last run", value: (job) => job.lastRunAt ?? "never" },
      { header: "next run", value: (job) => (job.enabled ? (job.nextRunAt ?? "-") : "-") },
      { header: "runs", value: (job) => String(job.runs) },
      { header: "last result", value: summary, flexible: true },
    ]),
  );
};

export default jobs;
