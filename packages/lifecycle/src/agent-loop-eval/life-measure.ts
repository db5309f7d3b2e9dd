/**
 * Asks the scripted life's questions of its replayed store, through `buildMemoryContext` with its
 * defaults and through `recall(q, { limit: 5, minScore: 0 })`, and checks each answer for the
 * current fact, a stale version, another person's fact as the first entry, and the assistant's
 * own replies.
 */
import type { Memory, MemoryEntry } from "@memory/api";
import { buildMemoryContext } from "../memory-context.js";
import { type LifeQuestion, mentions } from "./life-data.js";
import type { ContextSettings } from "./loop-session.js";
import type { EntryOrigins } from "./origins.js";

export interface LifeChecks {
  current: boolean;
  stale: boolean;
  otherFirst: boolean;
  ownReplies: number;
  entries: number;
}

export interface LifeAnswer {
  id: string;
  changed: boolean;
  context: LifeChecks;
  top5: LifeChecks;
  contextLines?: string[];
}

function check(entries: MemoryEntry[], question: LifeQuestion, origins: EntryOrigins): LifeChecks {
  const has = (facts: string[]) =>
    entries.some((entry) => facts.some((fact) => mentions(entry.content, fact)));
  const first = entries[0];
  return {
    current: has([question.current]),
    stale: has(question.stale),
    otherFirst:
      first !== undefined && question.others.some((fact) => mentions(first.content, fact)),
    ownReplies: entries.filter((entry) => origins.of(entry)?.role === "assistant").length,
    entries: entries.length,
  };
}

export async function askLife(
  memory: Memory,
  namespace: string,
  question: LifeQuestion,
  origins: EntryOrigins,
  settings: ContextSettings = {},
): Promise<LifeAnswer> {
  const context = await buildMemoryContext(memory, question.text, { ...settings, namespace });
  const top5 = await memory.recall(question.text, {
    namespace,
    limit: 5,
    minScore: 0,
    track: false,
  });
  return {
    id: question.id,
    changed: question.changed,
    context: check(context.entries, question, origins),
    top5: check(top5, question, origins),
    contextLines: context.text === "" ? [] : context.text.split("\n").slice(1),
  };
}

export interface LifeRates {
  questions: number;
  current: number;
  stale: number;
  otherFirst: number;
  /** Share of the returned entries that are the assistant's own replies. */
  ownReplyShare: number;
  /** Share of questions with at least one own reply among the entries. */
  withOwnReply: number;
  empty: number;
}

export interface LifeSummary {
  changed: { context: LifeRates; top5: LifeRates };
  all: { context: LifeRates; top5: LifeRates };
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

function rates(checks: LifeChecks[]): LifeRates {
  const entries = checks.reduce((sum, c) => sum + c.entries, 0);
  return {
    questions: checks.length,
    current: share(checks.filter((c) => c.current).length, checks.length),
    stale: share(checks.filter((c) => c.stale).length, checks.length),
    otherFirst: share(checks.filter((c) => c.otherFirst).length, checks.length),
    ownReplyShare: share(
      checks.reduce((sum, c) => sum + c.ownReplies, 0),
      entries,
    ),
    withOwnReply: share(checks.filter((c) => c.ownReplies > 0).length, checks.length),
    empty: share(checks.filter((c) => c.entries === 0).length, checks.length),
  };
}

export function summarizeLife(answers: LifeAnswer[]): LifeSummary {
  const changed = answers.filter((a) => a.changed);
  return {
    changed: {
      context: rates(changed.map((a) => a.context)),
      top5: rates(changed.map((a) => a.top5)),
    },
    all: { context: rates(answers.map((a) => a.context)), top5: rates(answers.map((a) => a.top5)) },
  };
}
