/**
 * The agent-loop benchmark (issue 25): replays the LoCoMo development split and the scripted
 * life of a user (life.json) through the README's agent loop (replay.ts), then asks every
 * question through `buildMemoryContext` with its defaults and through top-5 recall, and prints
 * Markdown tables per embedder x clock (README.md in this folder says what each column means).
 *
 *   pnpm --filter @memory/lifecycle bench:agent-loop [--embedder local|none|both]
 *     [--clock wall|dated|both] [--limit-conversations N] [--out file.json] [--verbose]
 *
 * Not a test: it asserts nothing about quality.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Memory } from "@memory/api";
import { createLocalEmbeddings, type LocalEmbeddingProvider } from "@memory/embeddings/local";
import { createSqliteMemory } from "@memory/sqlite";
import { benchNow, type ClockMode, resetClock, setClock } from "./clock.js";
import { lifeConversation, loadLifeScenario } from "./life-data.js";
import { askLife, type LifeAnswer, summarizeLife } from "./life-measure.js";
import { DEFAULT_LOCOMO_FILE, loadLocomo } from "./locomo-data.js";
import { askOwn, askStranger, type LocomoAnswer, summarizeLocomo } from "./locomo-measure.js";
import type { LoopConversation } from "./loop-session.js";
import { type Replayed, replayConversation } from "./replay.js";
import { lifeTable, locomoTable, loopTable, type ModeResult } from "./report.js";

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
const split = loadLocomo(options.locomo);
const conversations = split.conversations.slice(0, options.limit);
const life = loadLifeScenario();

async function replayInto(
  dir: string,
  provider: LocalEmbeddingProvider | undefined,
  conversation: LoopConversation,
  clock: ClockMode,
): Promise<{ memory: Memory; replayed: Replayed }> {
  const memory = createSqliteMemory({
    path: path.join(dir, `${conversation.id}.db`),
    ...(provider ? { embedder: provider } : {}),
    now: benchNow,
  });
  return { memory, replayed: await replayConversation(memory, conversation, clock) };
}

async function runMode(
  embedder: Embedder,
  clock: ClockMode,
  provider: LocalEmbeddingProvider | undefined,
): Promise<ModeResult & { answers: LocomoAnswer[]; lifeAnswers: LifeAnswer[] }> {
  const started = performance.now();
  const dir = mkdtempSync(path.join(tmpdir(), "memory-agent-loop-"));
  const stores: { memory: Memory; replayed: Replayed; conversation: LoopConversation }[] = [];
  try {
    const loop = { contexts: 0, nonEmpty: 0, entries: 0, characters: 0 };
    for (const conversation of conversations) {
      const store = await replayInto(dir, provider, conversation, clock);
      stores.push({ ...store, conversation });
      for (const key of Object.keys(loop) as (keyof typeof loop)[]) {
        loop[key] += store.replayed.loop[key];
      }
      console.error(`[agent-loop] ${embedder}/${clock}: replayed ${conversation.id}`);
    }
    const answers: LocomoAnswer[] = [];
    const strangers: number[] = [];
    for (const [index, { memory, replayed, conversation }] of stores.entries()) {
      setClock(clock, conversation.askedAt);
      for (const question of split.questions.filter((q) => q.conversation === conversation.id)) {
        answers.push(await askOwn(memory, conversation.id, question, replayed.origins));
      }
      // "Never heard of": the previous conversation's questions, asked of this store.
      const other = stores.length > 1 ? stores.at(index - 1) : undefined;
      if (!other) continue;
      for (const question of split.questions.filter(
        (q) => q.conversation === other.conversation.id,
      )) {
        strangers.push(await askStranger(memory, conversation.id, question));
      }
    }
    const lifeRun = lifeConversation(life);
    const lifeStore = await replayInto(dir, provider, lifeRun, clock);
    stores.push({ ...lifeStore, conversation: lifeRun });
    setClock(clock, lifeRun.askedAt);
    const lifeAnswers: LifeAnswer[] = [];
    for (const question of life.questions) {
      lifeAnswers.push(
        await askLife(lifeStore.memory, lifeRun.id, question, lifeStore.replayed.origins),
      );
    }
    const lookups = { byKey: 0, byContent: 0, unknown: 0 };
    for (const { replayed } of stores) {
      for (const key of Object.keys(lookups) as (keyof typeof lookups)[]) {
        lookups[key] += replayed.origins.lookups[key];
      }
    }
    return {
      embedder,
      clock,
      originLookups: lookups,
      seconds: (performance.now() - started) / 1000,
      conversations: conversations.map((c) => c.id),
      locomo: summarizeLocomo(answers, strangers),
      locomoLoop: loop,
      life: summarizeLife(lifeAnswers),
      answers,
      lifeAnswers,
    };
  } finally {
    for (const { memory } of stores) await memory.close();
    resetClock();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printMisses(result: Awaited<ReturnType<typeof runMode>>): void {
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

const results: Awaited<ReturnType<typeof runMode>>[] = [];
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
console.log(
  `\nAgent loop on LoCoMo (${conversations.map((c) => c.id).join(", ")}; categories 1-4 answerable), ${machine}\n`,
);
console.log(locomoTable(results));
console.log("\nContexts built before each user message during the replay:\n");
console.log(loopTable(results));
for (const { embedder, clock, originLookups } of results) {
  const { byKey, byContent, unknown } = originLookups;
  console.log(
    `\n${embedder}/${clock}: entries returned, matched to their message by key ${byKey}, by content ${byContent}, not at all ${unknown}`,
  );
}
console.log(
  `\nScripted life (${life.sessions.length} sessions, ${life.questions.length} questions):\n`,
);
console.log(lifeTable(results));
if (options.out !== undefined) {
  writeFileSync(options.out, `${JSON.stringify({ machine, results }, null, 2)}\n`);
  console.log(`\nJSON written to ${options.out}`);
}
