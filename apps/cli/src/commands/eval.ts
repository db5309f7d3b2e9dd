import { performance } from "node:perf_hooks";
import { embeddingsDisabled } from "@memory/core";
import { CommandError, UsageError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import { interruptible } from "../cli/interruption.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { type EvalReport, renderEvalReport } from "../eval/eval-report.js";
import { aggregateMetrics, EVAL_KS, quantile } from "../eval/eval-scorer.js";
import { openIsolatedStore } from "../eval/isolated-store.js";
import { loadEvalDataset } from "../eval/load-eval-dataset.js";
import { type EvalRun, runEval } from "../eval/run-eval.js";
import { createProgress } from "../output/progress.js";

export interface EvalOptions {
  memories?: string;
  questions?: string;
  conversations?: string[];
  /** Default {@link DEFAULT_LIMIT}; unset so that `--agent-loop` can refuse it. */
  limit?: number;
  mode?: "hybrid" | "bm25" | "embedding";
  perQuestion?: boolean;
  agentLoop?: boolean;
  dataset?: string;
  life?: string;
  clock?: "wall" | "dated" | "both";
}

const DEFAULT_LIMIT = 20;

/** `--agent-loop` takes its own options; the retrieval benchmark's make no sense there. */
function checkAgentLoopOptions(file: string | undefined, options: EvalOptions): void {
  const { agentLoop, memories, questions, limit, dataset, life, clock } = options;
  if (!agentLoop) {
    const loopOnly = [
      ["--dataset", dataset],
      ["--life", life],
      ["--clock", clock],
    ].filter(([, value]) => value !== undefined);
    if (loopOnly.length > 0) {
      throw new UsageError(
        `${loopOnly.map(([flag]) => flag).join(", ")} ${loopOnly.length === 1 ? "belongs" : "belong"} to --agent-loop: run memory eval --agent-loop --dataset <locomo.json> [--life <scenario.json>] [--clock wall|dated|both].`,
      );
    }
    return;
  }
  if (memories !== undefined || questions !== undefined) {
    throw new UsageError(
      "--agent-loop replays a LoCoMo file (--dataset <locomo.json>), not --memories/--questions; run those without --agent-loop.",
    );
  }
  if (limit !== undefined) {
    throw new UsageError(
      "--limit is the retrieval benchmark's; --agent-loop measures the memory context with memory.toml's auto_recall_limit (set MEMORY_AUTO_RECALL_LIMIT to try another).",
    );
  }
  if (file !== undefined && dataset !== undefined) {
    throw new UsageError(
      `give the LoCoMo file once: either memory eval --agent-loop ${file} or --dataset ${dataset}.`,
    );
  }
}

// A human report names this many rejected memories; --json lists them all.
const SHOWN_REJECTIONS = 5;

// A bare import() here resolves against the CLI's own node_modules, where pnpm put the backends.
const loadModule = (specifier: string): Promise<unknown> => import(specifier);

/**
 * `memory eval <locomo.json>` or `memory eval --memories m.jsonl --questions q.jsonl`: a
 * retrieval benchmark of the configured backend, embedder and retrieval settings, run on a
 * temporary store (never the user's), scored exactly as the LoCoMo kit scores it.
 */
const evalCommand: CommandHandler<EvalOptions> = async (context, args, options) => {
  const [file] = args as [string | undefined];
  checkAgentLoopOptions(file, options);
  if (options.agentLoop) {
    const { evalAgentLoop } = await import("./eval-agent-loop.js");
    return evalAgentLoop(context, {
      dataset: options.dataset ?? file,
      life: options.life,
      clock: options.clock ?? "both",
      conversations: options.conversations,
      mode: options.mode,
      perQuestion: options.perQuestion,
    });
  }
  const { memories, questions, conversations, mode, perQuestion } = options;
  const limit = options.limit ?? DEFAULT_LIMIT;
  const dataset = await loadEvalDataset({ file, memories, questions, conversations });
  const { config } = context.config();
  const started = performance.now();

  const { run, store } = await interruptible(async (signal) => {
    const store = await openIsolatedStore(config, { mode, loadModule });
    let run: EvalRun;
    try {
      context.output.note(`memory eval: temporary ${store.location}`);
      if (store.provider === undefined && !embeddingsDisabled(config.memory)) {
        // The numbers would silently be keyword-only: say so even with --json (stderr).
        context.output.warn(
          `embedding_provider = "${config.memory.embedding_provider}" gave no embedder (${store.providerReason}); these numbers are keyword-only. Run \`memory doctor\` to see why.`,
        );
      }
      // Both bars draw from their first update, one after the other (one line each).
      const importBar = await createProgress(context.output, "eval: import", "memories");
      const questionBar = await createProgress(context.output, "eval: recall", "questions");
      try {
        run = await runEval(store.memory, dataset, {
          limit,
          mode,
          signal,
          onImportProgress: (done, total) => importBar.update(done, total),
          onIngested: () => importBar.stop(),
          onQuestion: (done, total) => questionBar.update(done, total),
        });
      } finally {
        importBar.stop();
        questionBar.stop();
      }
      return { run, store };
    } finally {
      await store.dispose();
    }
  });
  if (run.interrupted) {
    throw new CommandError(
      `interrupted after ${run.results.length} of ${dataset.questions.length} questions; the temporary store was deleted and nothing was reported (run it again to finish).`,
      EXIT_CODES.interrupted,
    );
  }
  if (run.rejected.length > 0) {
    const listed = run.rejected
      .slice(0, SHOWN_REJECTIONS)
      .map((rejection) => `${rejection.origin}: ${rejection.code} ${rejection.message}`)
      .join("; ");
    const more =
      run.rejected.length > SHOWN_REJECTIONS
        ? ` and ${run.rejected.length - SHOWN_REJECTIONS} more`
        : "";
    if (dataset.format === "generic") {
      throw new CommandError(
        `the store refused ${run.rejected.length} ${run.rejected.length === 1 ? "memory" : "memories"} (${listed}${more}); fix them and run it again.`,
        EXIT_CODES.usage,
        { rejected: run.rejected },
      );
    }
    // The kit's adapter goes on without them (they can only be missed); say so.
    context.output.warn(
      `the store refused ${run.rejected.length} memories (${listed}${more}); they count as never found.`,
    );
  }

  const latencies = run.results.map((result) => result.latency_ms);
  const report: EvalReport = {
    format: dataset.format,
    sources: dataset.sources,
    backend: config.memory.backend,
    embedder: store.provider?.fingerprint ?? null,
    embedderReason: store.providerReason,
    mode: mode ?? config.memory.search_mode,
    limit,
    ks: EVAL_KS,
    dataset: { ...dataset.stats, imported: run.imported },
    metrics: aggregateMetrics(run.results, dataset.inOverall),
    category_names: dataset.categoryNames,
    timing: {
      wall_ms: performance.now() - started,
      ingest_ms: run.ingestMs,
      recall_ms: run.recallMs,
      latency_ms_mean: latencies.length > 0 ? run.recallMs / latencies.length : null,
      latency_ms_p50: quantile(latencies, 0.5),
      latency_ms_p95: quantile(latencies, 0.95),
    },
    ...(perQuestion ? { questions: run.results } : {}),
  };
  const excluded = [...new Set(run.results.map((result) => result.category))]
    .filter((category) => !dataset.inOverall(category))
    .map(String);
  context.output.result(report, () => renderEvalReport(report, excluded));
};

export default evalCommand;
