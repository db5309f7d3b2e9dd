/**
 * The agent-loop benchmark (issue 25): a thin wrapper over `@memory/lifecycle/agent-loop-eval`
 * (src/agent-loop-eval/) on fresh SQLite files with `createSqliteMemory`'s defaults, per
 * embedder x clock. `memory eval --agent-loop` runs the same code on the user's configuration;
 * for the same settings both print the same numbers. README.md in this folder says what each
 * column means.
 *
 *   pnpm --filter @memory/lifecycle bench:agent-loop [--embedder local|none|both]
 *     [--clock wall|dated|both] [--limit-conversations N] [--locomo file] [--out file.json] [--verbose]
 *
 * Not a test: it asserts nothing about quality.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createLocalEmbeddings, type LocalEmbeddingProvider } from "@memory/embeddings/local";
import { createSqliteMemory } from "@memory/sqlite";
import { benchNow, type ClockMode } from "../../src/agent-loop-eval/clock.js";
import { loadLifeScenario } from "../../src/agent-loop-eval/life-data.js";
import { type LocomoSplit, loadLocomo } from "../../src/agent-loop-eval/locomo-data.js";
import { agentLoopReport, type ModeResult } from "../../src/agent-loop-eval/report.js";
import {
  type AgentLoopEvalResult,
  runAgentLoopEval,
} from "../../src/agent-loop-eval/run-agent-loop-eval.js";

const DEFAULT_LOCOMO_FILE = "/work/shared/eval/locomo/data/locomo10.json";
const USAGE =
  "usage: bench:agent-loop [--embedder local|none|both] [--clock wall|dated|both] [--limit-conversations N] [--locomo file] [--out file.json] [--verbose]";

type Embedder = "local" | "none";

function readOptions() {
  const { values } = parseArgs({
    options: {
      embedder: { type: "string", default: "both" },
      clock: { type: "string", default: "both" },
      "limit-conversations": { type: "string" },
      locomo: { type: "string", default: DEFAULT_LOCOMO_FILE },
      out: { type: "string" },
      verbose: { type: "boolean", default: false },
    },
  });
  const embedders = { local: ["local"], none: ["none"], both: ["local", "none"] }[
    values.embedder as string
  ] as Embedder[] | undefined;
  if (!embedders) throw new Error(`--embedder must be local, none or both\n${USAGE}`);
  const clocks = { wall: ["wall"], dated: ["dated"], both: ["wall", "dated"] }[
    values.clock as string
  ] as ClockMode[] | undefined;
  if (!clocks) throw new Error(`--clock must be wall, dated or both\n${USAGE}`);
  const limitText = values["limit-conversations"];
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw new Error(`--limit-conversations must be a whole number >= 1\n${USAGE}`);
  }
  return {
    embedders,
    clocks,
    limit,
    locomo: values.locomo as string,
    out: values.out,
    verbose: values.verbose === true,
  };
}

let options: ReturnType<typeof readOptions>;
try {
  options = readOptions();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
const full = loadLocomo(options.locomo);
const conversations = full.conversations.slice(0, options.limit);
const kept = new Set(conversations.map((c) => c.id));
const split: LocomoSplit = {
  ...full,
  conversations,
  questions: full.questions.filter((q) => kept.has(q.conversation)),
};
const life = loadLifeScenario();

type Result = AgentLoopEvalResult & ModeResult;

async function runMode(
  embedder: Embedder,
  clock: ClockMode,
  provider: LocalEmbeddingProvider | undefined,
): Promise<Result> {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-agent-loop-"));
  try {
    const result = await runAgentLoopEval({
      locomo: split,
      life,
      clock,
      openStore: async (name) => {
        const memory = createSqliteMemory({
          path: path.join(dir, `${name}.db`),
          ...(provider ? { embedder: provider } : {}),
          now: benchNow,
        });
        return { memory, dispose: () => memory.close() };
      },
      onProgress: (line) => console.error(`[agent-loop] ${embedder}/${line}`),
    });
    return { ...result, embedder };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printMisses(result: Result): void {
  console.log(`\nMisses, ${result.embedder}/${result.clock}:`);
  for (const answer of result.answers) {
    if (answer.category > 4 || answer.evidenceInContext > 0) continue;
    const question = split.questions.find((q) => q.id === answer.id);
    console.log(
      `  ${answer.id} (cat ${answer.category}) "${question?.text}" evidence ${question?.evidence.join(",")} context [${answer.contextOrigins?.join(", ")}]`,
    );
  }
  for (const answer of result.lifeAnswers) {
    if (answer.context.current && !answer.context.stale) continue;
    console.log(`  life ${answer.id}: ${JSON.stringify(answer.context)}`);
    for (const line of answer.contextLines ?? []) console.log(`    ${line}`);
  }
}

const results: Result[] = [];
for (const embedder of options.embedders) {
  const provider = embedder === "local" ? createLocalEmbeddings() : undefined;
  try {
    for (const clock of options.clocks) {
      const result = await runMode(embedder, clock, provider);
      results.push(result);
      if (options.verbose) printMisses(result);
    }
  } finally {
    await provider?.close();
  }
}

const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, load ${os
  .loadavg()
  .map((n) => n.toFixed(2))
  .join(" ")}`;
console.log(`\nAgent loop, ${machine}\n`);
console.log(
  agentLoopReport(results, {
    conversations: conversations.map((c) => c.id),
    lifeSessions: life.sessions.length,
    lifeQuestions: life.questions.length,
  }),
);
for (const { embedder, clock, originLookups, seconds } of results) {
  const { byKey, byContent, unknown } = originLookups;
  console.log(
    `\n${embedder}/${clock} (${seconds.toFixed(0)} s): entries returned, matched to their message by key ${byKey}, by content ${byContent}, not at all ${unknown}`,
  );
}
if (options.out !== undefined) {
  writeFileSync(options.out, `${JSON.stringify({ machine, results }, null, 2)}\n`);
  console.log(`\nJSON written to ${options.out}`);
}
