/**
 * Asks the LoCoMo questions of one replayed conversation, two ways in the same run: through
 * `buildMemoryContext(memory, question, { namespace })` with its defaults (what the agent gets)
 * and through `memory.recall(question, { limit: 5, minScore: 0 })` (what recall ranks). Each
 * question is asked of its own conversation's store and, as "never heard of", of another's.
 */
import type { Memory, MemoryEntry } from "@memory/api";
import { buildMemoryContext } from "../memory-context.js";
import { isContentless } from "./contentless.js";
import type { LocomoQuestion } from "./locomo-data.js";
import type { ContextSettings } from "./loop-session.js";
import type { EntryOrigin, EntryOrigins } from "./origins.js";

/** What one question got from its own conversation's store. */
export interface LocomoAnswer {
  id: string;
  category: number;
  /** Entries of the context block. */
  entries: number;
  characters: number;
  /** Evidence dia_ids that made it into the context. */
  evidenceInContext: number;
  evidenceTotal: number;
  /** Context entries that are no evidence; of those, the assistant's replies. */
  noise: number;
  noiseAssistant: number;
  /** Contentless context entries (contentless.ts), evidence or not. */
  contentless: number;
  /** Evidence dia_ids among recall's top 5 (minScore 0). */
  evidenceInTop5: number;
  contextOrigins?: string[];
}

function originsOf(entries: MemoryEntry[], origins: EntryOrigins): (EntryOrigin | undefined)[] {
  return entries.map((entry) => origins.of(entry));
}

export async function askOwn(
  memory: Memory,
  namespace: string,
  question: LocomoQuestion,
  origins: EntryOrigins,
  settings: ContextSettings = {},
): Promise<LocomoAnswer> {
  const context = await buildMemoryContext(memory, question.text, { ...settings, namespace });
  const top5 = await memory.recall(question.text, {
    namespace,
    limit: 5,
    minScore: 0,
    track: false,
  });
  const evidence = new Set(question.evidence);
  const inContext = originsOf(context.entries, origins);
  const found = new Set(inContext.filter((o) => o && evidence.has(o.origin)).map((o) => o?.origin));
  const foundTop5 = new Set(
    originsOf(top5, origins)
      .filter((o) => o && evidence.has(o.origin))
      .map((o) => o?.origin),
  );
  let noise = 0;
  let noiseAssistant = 0;
  let contentless = 0;
  context.entries.forEach((entry, index) => {
    if (isContentless(entry.content)) contentless++;
    const origin = inContext[index];
    if (origin && evidence.has(origin.origin)) return;
    noise++;
    if (origin?.role === "assistant") noiseAssistant++;
  });
  return {
    id: question.id,
    category: question.category,
    entries: context.entries.length,
    characters: context.text.length,
    evidenceInContext: found.size,
    evidenceTotal: evidence.size,
    noise,
    noiseAssistant,
    contentless,
    evidenceInTop5: foundTop5.size,
    contextOrigins: inContext.map((o) => (o ? `${o.role}:${o.origin}` : "?")),
  };
}

/** A question asked of a store that never heard of its subject: entries in the context. */
export async function askStranger(
  memory: Memory,
  namespace: string,
  question: LocomoQuestion,
  settings: ContextSettings = {},
): Promise<number> {
  const context = await buildMemoryContext(memory, question.text, { ...settings, namespace });
  return context.entries.length;
}

/** Per-bucket rates for the report. */
export interface LocomoSummary {
  answerable: number;
  evidenceAny: number;
  evidenceShare: number;
  emptyContext: number;
  meanEntries: number;
  meanCharacters: number;
  noiseShare: number;
  noiseAssistantShare: number;
  contentlessShare: number;
  /** Contexts (answerable questions) holding at least one contentless entry. */
  contextsWithContentless: number;
  top5EvidenceAny: number;
  adversarial: number;
  adversarialNonEmpty: number;
  neverHeard: number;
  neverHeardNonEmpty: number;
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

export function summarizeLocomo(answers: LocomoAnswer[], strangerEntries: number[]): LocomoSummary {
  const answerable = answers.filter((a) => a.category >= 1 && a.category <= 4);
  const adversarial = answers.filter((a) => a.category === 5);
  const entries = answerable.reduce((sum, a) => sum + a.entries, 0);
  const sum = (pick: (a: LocomoAnswer) => number) => answerable.reduce((s, a) => s + pick(a), 0);
  return {
    answerable: answerable.length,
    evidenceAny: share(answerable.filter((a) => a.evidenceInContext > 0).length, answerable.length),
    evidenceShare: share(
      sum((a) => a.evidenceInContext / a.evidenceTotal),
      answerable.length,
    ),
    emptyContext: share(answerable.filter((a) => a.entries === 0).length, answerable.length),
    meanEntries: share(entries, answerable.length),
    meanCharacters: share(
      sum((a) => a.characters),
      answerable.length,
    ),
    noiseShare: share(
      sum((a) => a.noise),
      entries,
    ),
    noiseAssistantShare: share(
      sum((a) => a.noiseAssistant),
      entries,
    ),
    contentlessShare: share(
      sum((a) => a.contentless),
      entries,
    ),
    contextsWithContentless: share(
      answerable.filter((a) => a.contentless > 0).length,
      answerable.length,
    ),
    top5EvidenceAny: share(
      answerable.filter((a) => a.evidenceInTop5 > 0).length,
      answerable.length,
    ),
    adversarial: adversarial.length,
    adversarialNonEmpty: share(adversarial.filter((a) => a.entries > 0).length, adversarial.length),
    neverHeard: strangerEntries.length,
    neverHeardNonEmpty: share(strangerEntries.filter((n) => n > 0).length, strangerEntries.length),
  };
}
