/**
 * One run of the agent-loop evaluation (issue 25) on one clock: every LoCoMo conversation is
 * replayed into a fresh store of its own (replay.ts), its questions are asked through the
 * memory context and top-5 recall (locomo-measure.ts), the previous conversation's questions
 * are asked of it as "never heard of", then the derived follow-ups (follow-ups.ts), and last
 * the scripted life (life-measure.ts) in a store of its own. `pnpm bench:agent-loop` and
 * `memory eval --agent-loop` both call this; only the store factory differs.
 */
import type { Memory } from "@memory/api";
import { type ClockMode, installShiftedClock, resetClock, setClock } from "./clock.js";
import {
  askFollowUp,
  type FollowUpAnswer,
  type FollowUpSummary,
  summarizeFollowUps,
} from "./follow-up-measure.js";
import { deriveFollowUps } from "./follow-ups.js";
import { type LifeScenario, lifeConversation } from "./life-data.js";
import { askLife, type LifeAnswer, type LifeSummary, summarizeLife } from "./life-measure.js";
import type { LocomoSplit } from "./locomo-data.js";
import {
  askOwn,
  askStranger,
  type LocomoAnswer,
  type LocomoSummary,
  summarizeLocomo,
} from "./locomo-measure.js";
import type { ContextSettings, LoopConversation } from "./loop-session.js";
import { type LoopContextStats, type Replayed, replayConversation } from "./replay.js";

/** A fresh, empty store that the run owns until `dispose()` (which closes and deletes it). */
export interface AgentLoopStore {
  memory: Memory;
  dispose(): Promise<void>;
}

export interface AgentLoopEvalOptions {
  locomo: LocomoSplit;
  life: LifeScenario;
  clock: ClockMode;
  /**
   * Opens a fresh store for one conversation (`name` is its id). One store per conversation
   * (each in its own namespace too), as the benchmark has always run: conversations share
   * nothing, not even a store's caches or its write order.
   * With the `dated` clock the process clock is already shifted when this is called, so a
   * store that reads `Date.now` for time decay reads the shifted one.
   */
  openStore(name: string): Promise<AgentLoopStore>;
  /** memory.toml's context settings; unset: buildMemoryContext's defaults. */
  context?: ContextSettings;
  /** One line per finished step (for a progress note on stderr). */
  onProgress?: (line: string) => void;
  /** Checked between steps; an aborted run rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface AgentLoopEvalResult {
  clock: ClockMode;
  seconds: number;
  conversations: string[];
  /** How the entries returned were matched to the message they came from (origins.ts). */
  originLookups: { byKey: number; byContent: number; unknown: number };
  locomo: LocomoSummary;
  locomoLoop: LoopContextStats;
  followUps: FollowUpSummary;
  life: LifeSummary;
  answers: LocomoAnswer[];
  followUpAnswers: FollowUpAnswer[];
  lifeAnswers: LifeAnswer[];
}

// SQLite work inside a promise never returns to the event loop by itself, so a SIGINT would
// wait for the whole run; one turn of the loop between steps lets its handler abort in time.
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function step(signal: AbortSignal | undefined): Promise<void> {
  await yieldToEventLoop();
  signal?.throwIfAborted();
}

interface Replay {
  store: AgentLoopStore;
  replayed: Replayed;
  conversation: LoopConversation;
}

export async function runAgentLoopEval(
  options: AgentLoopEvalOptions,
): Promise<AgentLoopEvalResult> {
  const { locomo, life, clock, signal } = options;
  const settings = options.context ?? {};
  const started = performance.now();
  if (clock === "dated") installShiftedClock();
  const replays: Replay[] = [];
  const replay = async (conversation: LoopConversation): Promise<Replay> => {
    await step(signal);
    const store = await options.openStore(conversation.id);
    const entry: Replay = { store, conversation, replayed: undefined as unknown as Replayed };
    replays.push(entry); // disposed in `finally` even when the replay fails
    entry.replayed = await replayConversation(store.memory, conversation, clock, settings);
    options.onProgress?.(`${clock}: replayed ${conversation.id}`);
    return entry;
  };
  try {
    const loop: LoopContextStats = { contexts: 0, nonEmpty: 0, entries: 0, characters: 0 };
    const stored: Replay[] = [];
    for (const conversation of locomo.conversations) {
      const done = await replay(conversation);
      stored.push(done);
      for (const key of Object.keys(loop) as (keyof LoopContextStats)[]) {
        loop[key] += done.replayed.loop[key];
      }
    }
    const questionsOf = (id: string) => locomo.questions.filter((q) => q.conversation === id);
    const answers: LocomoAnswer[] = [];
    const strangers: number[] = [];
    for (const [index, { store, replayed, conversation }] of stored.entries()) {
      setClock(clock, conversation.askedAt);
      for (const question of questionsOf(conversation.id)) {
        await step(signal);
        answers.push(
          await askOwn(store.memory, conversation.id, question, replayed.origins, settings),
        );
      }
      // "Never heard of": the previous conversation's questions, asked of this store.
      const other = stored.length > 1 ? stored.at(index - 1) : undefined;
      if (!other) continue;
      for (const question of questionsOf(other.conversation.id)) {
        await step(signal);
        strangers.push(await askStranger(store.memory, conversation.id, question, settings));
      }
    }

    const derivation = deriveFollowUps(locomo.questions, (id) => locomo.speakers.get(id));
    const followUpAnswers: FollowUpAnswer[] = [];
    for (const { store, replayed, conversation } of stored) {
      setClock(clock, conversation.askedAt);
      for (const followUp of derivation.followUps) {
        const question = locomo.questions.find((q) => q.id === followUp.questionId);
        if (question?.conversation !== conversation.id) continue;
        await step(signal);
        followUpAnswers.push(
          await askFollowUp(
            store.memory,
            conversation.id,
            followUp,
            question,
            replayed.origins,
            settings,
          ),
        );
      }
    }
    options.onProgress?.(
      `${clock}: asked ${answers.length} questions, ${followUpAnswers.length} follow-ups`,
    );

    const lifeRun = await replay(lifeConversation(life));
    setClock(clock, lifeRun.conversation.askedAt);
    const lifeAnswers: LifeAnswer[] = [];
    for (const question of life.questions) {
      await step(signal);
      lifeAnswers.push(
        await askLife(
          lifeRun.store.memory,
          lifeRun.conversation.id,
          question,
          lifeRun.replayed.origins,
          settings,
        ),
      );
    }

    const originLookups = { byKey: 0, byContent: 0, unknown: 0 };
    for (const { replayed } of replays) {
      for (const key of Object.keys(originLookups) as (keyof typeof originLookups)[]) {
        originLookups[key] += replayed.origins.lookups[key];
      }
    }
    return {
      clock,
      seconds: (performance.now() - started) / 1000,
      conversations: locomo.conversations.map((c) => c.id),
      originLookups,
      locomo: summarizeLocomo(answers, strangers),
      locomoLoop: loop,
      followUps: summarizeFollowUps(followUpAnswers, answers, derivation.skipped),
      life: summarizeLife(lifeAnswers),
      answers,
      followUpAnswers,
      lifeAnswers,
    };
  } finally {
    resetClock();
    for (const { store } of replays) await store.dispose();
  }
}
