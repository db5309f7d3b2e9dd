import { resolveChatModel } from "@memory/embeddings";
import {
  CollectionWatcher,
  configuredJobs,
  JobScheduler,
  listCollections,
} from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";
import { untilSignal } from "../store/load-server.js";
import { configuredCollections } from "./shared/collections.js";

/**
 * `memory worker`: runs only the maintenance scheduler (hygiene, snapshot, curate, transcripts) until SIGINT/SIGTERM,
 * for deployments that keep jobs out of the server. Safe next to servers on the same store: each
 * run holds a lease and the cadence lives in the store.
 */
const worker: CommandHandler = async (context) => {
  const { config } = context.config();
  const jobs = configuredJobs(config, { chatModel: resolveChatModel(config.memory) });
  const { memory } = await context.open("none", context.config(), { longRunning: true });
  const output = context.output;
  const scheduler = new JobScheduler({
    memory,
    jobs,
    logger: {
      info: (message) => output.note(message),
      warn: (message) => output.warn(message),
      error: (message, error) =>
        output.warn(`${message}${error instanceof Error ? `: ${error.message}` : ""}`),
    },
  });
  output.result({ jobs: scheduler.jobNames, holder: scheduler.holder }, () =>
    jobs.length === 0
      ? "memory worker: no job enabled (hygiene_enabled and snapshot_enabled are off); waiting for Ctrl-C"
      : `memory worker running ${scheduler.jobNames.join(", ")} every ${config.memory.hygiene_interval_hours} h (Ctrl-C to stop)`,
  );
  // Collections are indexed with the configured embedder (the jobs need none), so a second
  // store is opened only when there is a collection to keep fresh.
  const { configured, baseDir } = configuredCollections(context);
  let watcher: CollectionWatcher | undefined;
  if ((await listCollections(memory, configured, { baseDir })).length > 0) {
    const { memory: indexed } = await context.open("configured", context.config(), {
      longRunning: true,
    });
    watcher = new CollectionWatcher(indexed, {
      configured,
      baseDir,
      onError: (error) =>
        output.warn(`collections: ${error instanceof Error ? error.message : String(error)}`),
      onSync: (reports) => {
        for (const report of reports)
          if (report.added + report.changed + report.removed > 0 || report.error)
            output.note(
              `collection ${report.collection}: ${report.error?.message ?? `${report.added} added, ${report.changed} changed, ${report.removed} removed`}`,
            );
      },
    });
    void watcher.start();
  }
  // With no job the scheduler loop would end at once; a timer keeps the process waiting.
  const keepAlive = setInterval(() => {}, 1 << 30);
  scheduler.start();
  const signal = await untilSignal();
  clearInterval(keepAlive);
  output.note(`${signal}: stopping (waiting for a running job)`);
  await scheduler.stop();
  await watcher?.close();
};

export default worker;
