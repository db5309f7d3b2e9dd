import type { MemoryEntry, RecallDropReason, RecallTrace, RecallTraceCandidate } from "@memory/api";
import { traceCandidate } from "@memory/core";
import type { TurnExclusion } from "./context-entries.js";

/** The recalls a memory context runs: for the message, its discovery query, and the fallback. */
export type ContextRecallPurpose = "message" | "discovery" | "fallback";

/** The settings a memory context ran with (defaults applied), as numbers and switches. */
export interface MemoryContextTraceSettings {
  recall: boolean;
  limit: number;
  /** Against each entry's relevance before decay (`explain.fused`). */
  minScore: number;
  /** The threshold of a question that names someone the store knows. */
  namedMinScore: number;
  includeNeighbours: boolean;
  coreLimit: number;
  includeConversation: boolean;
  includeReplies: boolean;
  includeQuestions: boolean;
  maxChars: number;
  maxEntryChars: number;
}

/**
 * The full account of one memory context (`explain: "full"`): each recall it ran, traced, and
 * every entry it looked at, kept (in block order) or dropped with the reason, including what
 * the recalls themselves dropped.
 */
export interface MemoryContextTrace {
  message: string;
  /** The discovery query, when the session's earlier messages made it differ from the message. */
  discoveryQuery?: string;
  settings: MemoryContextTraceSettings;
  recalls: { purpose: ContextRecallPurpose; trace: RecallTrace }[];
  candidates: RecallTraceCandidate[];
}

const EXCLUSION_REASON: Record<TurnExclusion, RecallDropReason> = {
  assistant_reply: "assistant_reply",
  conversation_turn: "conversation_turn",
  contentless: "contentless",
  question: "question",
};

const EXCLUSION_DETAIL: Record<TurnExclusion, string> = {
  assistant_reply: "an autosaved assistant reply (includeReplies is off)",
  conversation_turn: "a conversation turn (includeConversation is off)",
  contentless: "a turn that says nothing to remember",
  question: "a question answers nothing (includeQuestions is off)",
};

/**
 * Collects a memory context's decisions where `buildMemoryContext` makes them; a context built
 * without `explain` has none and pays for nothing.
 */
export class ContextTraceCollector {
  readonly recalls: MemoryContextTrace["recalls"] = [];
  readonly #decided = new Map<string, RecallTraceCandidate>();
  discoveryQuery: string | undefined;

  recalled(purpose: ContextRecallPurpose, trace: RecallTrace): void {
    this.recalls.push({ purpose, trace });
  }

  keep(entry: MemoryEntry, detail: string): void {
    this.#decided.set(entry.key, traceCandidate(entry, true, undefined, detail));
  }

  drop(entry: MemoryEntry, reason: RecallDropReason, detail: string): void {
    // The first verdict on a key stands (the message's own scoring comes first).
    if (!this.#decided.has(entry.key))
      this.#decided.set(entry.key, traceCandidate(entry, false, reason, detail));
  }

  excluded(entry: MemoryEntry, exclusion: TurnExclusion): void {
    this.drop(entry, EXCLUSION_REASON[exclusion], EXCLUSION_DETAIL[exclusion]);
  }

  /** A kept entry whose place another took (it said all the entry said, and more). */
  replace(entry: MemoryEntry, detail: string): void {
    this.#decided.set(entry.key, traceCandidate(entry, false, "duplicate", detail));
  }

  /** Entries looked at but not reached before the limit was full. */
  overLimit(entries: readonly MemoryEntry[], limit: number, what: string): void {
    for (const entry of entries)
      if (!this.#decided.has(entry.key))
        this.drop(entry, "over_limit", `${what}: the limit of ${limit} was already reached`);
  }

  /** Chosen entries the character budget left out of the block. */
  overBudget(
    chosen: readonly MemoryEntry[],
    shown: readonly MemoryEntry[],
    maxChars: number,
  ): void {
    const inBlock = new Set(shown.map((entry) => entry.key));
    for (const entry of chosen)
      if (!inBlock.has(entry.key))
        this.#decided.set(
          entry.key,
          traceCandidate(entry, false, "over_budget", `the block reached maxChars ${maxChars}`),
        );
  }

  /**
   * The block's entries first (block order), then every other verdict, then what the recalls
   * dropped before the context saw it (the first recall's verdict on a key).
   */
  build(
    message: string,
    settings: MemoryContextTraceSettings,
    shown: readonly MemoryEntry[],
  ): MemoryContextTrace {
    const kept = shown.map((entry) => this.#decided.get(entry.key)!);
    const inBlock = new Set(shown.map((entry) => entry.key));
    const rest = [...this.#decided.values()].filter((candidate) => !inBlock.has(candidate.key));
    const seen = new Set([...inBlock, ...rest.map((candidate) => candidate.key)]);
    const fromRecalls: RecallTraceCandidate[] = [];
    for (const { trace } of this.recalls)
      for (const candidate of trace.candidates) {
        if (seen.has(candidate.key)) continue;
        seen.add(candidate.key);
        fromRecalls.push(candidate);
      }
    const trace: MemoryContextTrace = {
      message,
      settings,
      recalls: this.recalls,
      candidates: [...kept, ...rest, ...fromRecalls],
    };
    if (this.discoveryQuery !== undefined) trace.discoveryQuery = this.discoveryQuery;
    return trace;
  }
}
