import type { CommandHandler } from "../cli/lazy-action.js";
import { runEmbeddingJob } from "./shared/embedding-job.js";

/** `memory reindex`: re-embeds everything with the configured provider (after a model change). */
const reindex: CommandHandler = (context, _args, options) =>
  runEmbeddingJob(
    context,
    "reindex",
    options.batchSize as number | undefined,
    (memory, jobOptions) => memory.reindex(jobOptions),
  );

export default reindex;
