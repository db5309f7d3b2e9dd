import type { CommandHandler } from "../cli/lazy-action.js";
import { runEmbeddingJob } from "./shared/embedding-job.js";

/** `memory reindex`: re-embeds everything with the configured provider (after a model change). */
export interface BatchOptions {
  batchSize?: number;
}

const reindex: CommandHandler<BatchOptions> = (context, _args, options) =>
  runEmbeddingJob(context, "reindex", options.batchSize, (memory, jobOptions) =>
    memory.reindex(jobOptions),
  );

export default reindex;
