import { embeddingsDisabled, resolveConfiguredProvider } from "@memory/core";
import { memoryContextOptionsFromConfig } from "@memory/lifecycle";
import {
  type AgentLoopEvalResult,
  agentLoopReport,
  type ClockMode,
  runAgentLoopEval,
} from "@memory/lifecycle/agent-loop-eval";
import { CommandError } from "../cli/cli-errors.js";
import type { CommandContext } from "../cli/command-context.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import { interruptible } from "../cli/interruption.js";
import { loadAgentLoopInput } from "../eval/agent-loop-input.js";
import { assertIsolatable, openIsolatedStore } from "../eval/isolated-store.js";

export interface AgentLoopOptions {
  dataset?: string | undefined;
  life?: string | undefined;
  clock: "wall" | "dated" | "both";
  conversations?: string[] | undefined;
  mode?: "hybrid" | "bm25" | "embedding" | undefined;
  perQuestion?: boolean | undefined;
}

const CLOCKS: Record<AgentLoopOptions["clock"], ClockMode[]> = {
  wall: ["wall"],
  dated: ["dated"],
  both: ["wall", "dated"],
};

// A bare import() here resolves against the CLI's own node_modules, where pnpm put the backends.
const loadModule = (specifier: string): Promise<unknown> => import(specifier);

/** The summaries of one clock (`--per-question` adds every answer). */
function summary(result: AgentLoopEvalResult, perQuestion: boolean) {
  const { answers, followUpAnswers, lifeAnswers, ...rates } = result;
  return perQuestion ? { ...rates, answers, followUpAnswers, lifeAnswers } : rates;
}

/**
 * `memory eval --agent-loop`: the agent-loop evaluation of `@memory/lifecycle` (LoCoMo replayed
 * through autosaveTurn and buildMemoryContext, derived follow-ups, the scripted life) on the
 * configured backend, embedder and context settings, one temporary store per conversation
 * (never the user's).
 */
export async function evalAgentLoop(
  context: CommandContext,
  options: AgentLoopOptions,
): Promise<void> {
  const input = await loadAgentLoopInput(options);
  const { config } = context.config();
  assertIsolatable(config.memory.backend);
  const { provider, reason } = await resolveConfiguredProvider(config, { loadModule });
  if (provider === undefined && !embeddingsDisabled(config.memory)) {
    // The numbers would silently be keyword-only: say so even with --json (stderr).
    context.output.warn(
      `embedding_provider = "${config.memory.embedding_provider}" gave no embedder (${reason}); these numbers are keyword-only. Run \`memory doctor\` to see why.`,
    );
  }
  const settings = memoryContextOptionsFromConfig(config.memory);
  const embedder = provider?.fingerprint ?? "none";
  const results: AgentLoopEvalResult[] = [];
  let location: string | undefined;
  try {
    await interruptible(async (signal) => {
      try {
        for (const clock of CLOCKS[options.clock]) {
          results.push(
            await runAgentLoopEval({
              locomo: input.locomo,
              life: input.scenario,
              clock,
              context: settings,
              signal,
              openStore: async () => {
                const store = await openIsolatedStore(config, {
                  mode: options.mode,
                  loadModule,
                  embedder: provider,
                });
                if (location === undefined) {
                  location = store.location;
                  context.output.note(
                    `memory eval --agent-loop: temporary stores, one per conversation, each deleted after its run (the first: ${store.location})`,
                  );
                }
                return { memory: store.memory, dispose: () => store.dispose() };
              },
              onProgress: (line) => context.output.note(`memory eval --agent-loop: ${line}`),
            }),
          );
        }
      } catch (error) {
        if (!signal.aborted) throw error;
        throw new CommandError(
          `interrupted after ${results.length} of ${CLOCKS[options.clock].length} clocks; the temporary stores were deleted and nothing was reported (run it again to finish).`,
          EXIT_CODES.interrupted,
        );
      }
    });
  } finally {
    await (provider as { close?: () => Promise<void> } | undefined)?.close?.();
  }

  const mode = options.mode ?? config.memory.search_mode;
  const report = {
    format: "agent-loop",
    sources: { dataset: input.dataset, life: input.life },
    backend: config.memory.backend,
    embedder: provider?.fingerprint ?? null,
    embedderReason: reason,
    mode,
    context: settings,
    conversations: input.locomo.conversations.map((c) => c.id),
    life: { sessions: input.scenario.sessions.length, questions: input.scenario.questions.length },
    results: results.map((result) => summary(result, options.perQuestion === true)),
  };
  context.output.result(report, () => [
    `${report.backend} (temporary stores, deleted) · ${provider?.fingerprint ?? "no embedder (keyword-only)"} · mode ${mode} · context: recall ${settings.recall ? "on" : "off"}, limit ${settings.limit}, min score ${settings.minScore}`,
    "",
    agentLoopReport(
      results.map((result) => ({ ...result, embedder })),
      {
        conversations: report.conversations,
        lifeSessions: report.life.sessions,
        lifeQuestions: report.life.questions,
      },
    ),
    "",
    results.map((result) => `${result.clock} ${result.seconds.toFixed(0)} s`).join(" · "),
  ]);
}
