import type { CommandHandler } from "../cli/lazy-action.js";
import { runEmbeddingJob } from "./shared/embedding-job.js";

/** `memory backfill`: embeds entries stored without a vector (deferred, failed or imported). */
export interface BatchOptions {
  batchSize?: number;
}

const backfill: CommandHandler<BatchOptions> = (context, _args, options) =>
  runEmbeddingJob(context, "backfill", options.batchSize, (memory, jobOptions) =>
    memory.backfillEmbeddings(jobOptions),
  );

export default backfill;
