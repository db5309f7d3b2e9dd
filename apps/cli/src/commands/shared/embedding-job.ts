import {
  type EmbeddingJobReport,
  fileBackedOf,
  type Memory,
  type ReindexOptions,
} from "@memory/api";
import { CommandError } from "../../cli/cli-errors.js";
import type { CommandContext } from "../../cli/command-context.js";
import { EXIT_CODES } from "../../cli/exit-codes.js";
import { createProgress } from "../../output/progress.js";

/** Runs reindex or backfill with a progress bar (rate and ETA) and prints the report. */
export async function runEmbeddingJob(
  context: CommandContext,
  label: "reindex" | "backfill",
  batchSize: number | undefined,
  job: (memory: Memory, options: ReindexOptions) => Promise<EmbeddingJobReport>,
): Promise<void> {
  const { memory, provider, providerReason } = await context.open("configured");
  if (!provider && label === "reindex" && fileBackedOf(memory)) {
    // A Markdown memory's reindex rebuilds its index from the files, with or without vectors.
    const report = await job(memory, {});
    context.output.result(
      { ...report, rebuilt: true },
      () => `reindex: rebuilt the index from the memory files (keyword-only: ${providerReason})`,
    );
    return;
  }
  if (!provider) {
    throw new CommandError(
      `${label} needs an embedding provider, but ${providerReason}: set embedding_provider in memory.toml (or MEMORY_EMBEDDING_PROVIDER).`,
      EXIT_CODES.failure,
    );
  }
  const progress = await createProgress(context.output, label);
  const options: ReindexOptions = { onProgress: ({ done, total }) => progress.update(done, total) };
  if (batchSize !== undefined) options.batchSize = batchSize;
  let report: EmbeddingJobReport;
  try {
    report = await job(memory, options);
  } finally {
    progress.stop();
  }
  if (report.failed > 0) context.exitCode = EXIT_CODES.failure;
  context.output.result({ ...report, provider: provider.fingerprint }, () => {
    const line = `${label}: embedded ${report.embedded}, failed ${report.failed}, remaining ${report.remaining} (${provider.fingerprint})`;
    return report.failed > 0
      ? [
          line,
          "some entries failed to embed: they still work for keyword recall; run `memory backfill` again later",
        ]
      : line;
  });
}
