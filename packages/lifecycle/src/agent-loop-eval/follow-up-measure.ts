/**
 * Asks a derived follow-up (follow-ups.ts) of its conversation's replayed store, two ways:
 *
 * - alone: `buildMemoryContext(memory, followUp, { namespace })`, no session (one message);
 * - multi-turn: the opener is saved as the agent loop saves a user message (`autosaveTurn` with a
 *   session of its own, no reply), then `buildMemoryContext(memory, followUp, { namespace,
 *   sessionId })`, so the discovery query takes in the opener (context-query.ts).
 *
 * The opener's entries are forgotten afterwards, so one follow-up never feeds the next; the
 * follow-ups run after every other LoCoMo question of the run, so those see the replayed store
 * as it was.
 */
import type { Memory, MemoryEntry } from "@memory/api";
import { autosaveTurn } from "../autosave-turn.js";
import { buildMemoryContext } from "../memory-context.js";
import { benchNow } from "./clock.js";
import type { FollowUp } from "./follow-ups.js";
import type { LocomoQuestion } from "./locomo-data.js";
import type { ContextSettings } from "./loop-session.js";
import type { EntryOrigins } from "./origins.js";

/** Evidence found by one context. */
export interface FollowUpContext {
  evidenceInContext: number;
  entries: number;
}

export interface FollowUpAnswer {
  id: string;
  category: number;
  evidenceTotal: number;
  alone: FollowUpContext;
  multiTurn: FollowUpContext & {
    /** The opener itself came back as a context entry. */
    openerInContext: boolean;
    /** Keys of older entries the saved opener superseded (a rule promoted it; expected none). */
    superseded: number;
  };
}

function evidenceIn(
  entries: MemoryEntry[],
  question: LocomoQuestion,
  origins: EntryOrigins,
): FollowUpContext {
  const evidence = new Set(question.evidence);
  const found = new Set<string>();
  for (const entry of entries) {
    const origin = origins.of(entry)?.origin;
    if (origin !== undefined && evidence.has(origin)) found.add(origin);
  }
  return { evidenceInContext: found.size, entries: entries.length };
}

export async function askFollowUp(
  memory: Memory,
  namespace: string,
  followUp: FollowUp,
  question: LocomoQuestion,
  origins: EntryOrigins,
  settings: ContextSettings = {},
): Promise<FollowUpAnswer> {
  const alone = await buildMemoryContext(memory, followUp.text, { ...settings, namespace });
  const sessionId = `follow-up/${followUp.questionId}`;
  const saved = await autosaveTurn(
    memory,
    { userMessage: followUp.opener, sessionId, namespace },
    { now: () => new Date(benchNow()) },
  );
  const openerKeys = new Set(saved.stored.map((entry) => entry.key));
  try {
    const multi = await buildMemoryContext(memory, followUp.text, {
      ...settings,
      namespace,
      sessionId,
    });
    const fromLoop = multi.entries.filter((entry) => !openerKeys.has(entry.key));
    return {
      id: question.id,
      category: question.category,
      evidenceTotal: question.evidence.length,
      alone: evidenceIn(alone.entries, question, origins),
      multiTurn: {
        ...evidenceIn(fromLoop, question, origins),
        entries: multi.entries.length,
        openerInContext: fromLoop.length < multi.entries.length,
        superseded: saved.superseded.length,
      },
    };
  } finally {
    for (const key of openerKeys) await memory.forget(key, { namespace });
  }
}

export interface FollowUpRates {
  evidenceAny: number;
  evidenceShare: number;
  empty: number;
  meanEntries: number;
}

/** Follow-up rates; `asked` are the same questions asked with the name (askOwn's answers). */
export interface FollowUpSummary {
  /** Answerable questions with a follow-up; the rest by reason. */
  followUps: number;
  skipped: { noSpeakerNamed: number; bothSpeakersNamed: number };
  /** The original question, name and all (the same questions). */
  named: FollowUpRates;
  /** The follow-up alone: no session id, one message. */
  alone: FollowUpRates;
  /** The follow-up with its session id: the opener is in the discovery query. */
  multiTurn: FollowUpRates & { openerInContext: number; superseded: number };
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

function rates(contexts: (FollowUpContext & { evidenceTotal: number })[]): FollowUpRates {
  const n = contexts.length;
  return {
    evidenceAny: share(contexts.filter((c) => c.evidenceInContext > 0).length, n),
    evidenceShare: share(
      contexts.reduce((sum, c) => sum + c.evidenceInContext / c.evidenceTotal, 0),
      n,
    ),
    empty: share(contexts.filter((c) => c.entries === 0).length, n),
    meanEntries: share(
      contexts.reduce((sum, c) => sum + c.entries, 0),
      n,
    ),
  };
}

export function summarizeFollowUps(
  answers: FollowUpAnswer[],
  named: { id: string; evidenceInContext: number; evidenceTotal: number; entries: number }[],
  skipped: FollowUpSummary["skipped"],
): FollowUpSummary {
  const ids = new Set(answers.map((answer) => answer.id));
  return {
    followUps: answers.length,
    skipped,
    named: rates(named.filter((answer) => ids.has(answer.id))),
    alone: rates(answers.map((a) => ({ ...a.alone, evidenceTotal: a.evidenceTotal }))),
    multiTurn: {
      ...rates(answers.map((a) => ({ ...a.multiTurn, evidenceTotal: a.evidenceTotal }))),
      openerInContext: share(
        answers.filter((a) => a.multiTurn.openerInContext).length,
        answers.length,
      ),
      superseded: answers.reduce((sum, a) => sum + a.multiTurn.superseded, 0),
    },
  };
}
