import type {
  Category,
  MemoryEntry,
  MergeStrategy,
  RecallExplain,
  RecallOptions,
  SearchMode,
} from "./memory-entry.js";

/**
 * Why a candidate is not in the results ("why not?"), as a stable code; each comes with a
 * sentence (`detail`) that gives the numbers. Recall's own reasons:
 * - `under_threshold`: its score (relevance x decay) is below `minScore`;
 * - `superseded`: replaced by a newer entry (`detail` names it) and `includeSuperseded` is off;
 * - `filtered`: left out by the recall's filter (categories, session, since/until) or by its
 *   collections choice, whatever it scored;
 * - `over_limit`: it passed every rule but ranked below `limit`;
 * - `replaced_by_fallback`: nothing had any relevance, the substring (LIKE) fallback answered.
 *
 * The memory context's own reasons (`buildMemoryContext` with `explain: "full"`):
 * `under_threshold` (its relevance before decay against the context's `minScore`),
 * `context_only` (it matches nothing itself, only its session raised it), `current_turn` (it is
 * the message itself), `duplicate` (same key, or near-identical to an entry already chosen),
 * `repeats_superseded` (it repeats a fact that has been superseded), `question`, `contentless`,
 * `assistant_reply`, `conversation_turn` (left out by `includeReplies`/`includeConversation`),
 * `other_subject` (the same attribute of someone else when the question has an answer),
 * `over_limit`, `over_budget` (it did not fit `maxChars`).
 *
 * The list grows (a snoozed entry will be `snoozed`): treat an unknown code as "dropped" and
 * show its `detail`.
 */
export type RecallDropReason =
  | "under_threshold"
  | "superseded"
  | "filtered"
  | "over_limit"
  | "replaced_by_fallback"
  | "context_only"
  | "current_turn"
  | "duplicate"
  | "repeats_superseded"
  | "question"
  | "contentless"
  | "assistant_reply"
  | "conversation_turn"
  | "other_subject"
  | "in_conversation"
  | "unknown_subject"
  | "over_budget";

/** Every drop reason with a short label, in the order a reader meets them. */
export const RECALL_DROP_REASONS: Readonly<Record<RecallDropReason, string>> = {
  under_threshold: "under the threshold",
  superseded: "superseded",
  filtered: "filtered out",
  over_limit: "over the limit",
  replaced_by_fallback: "replaced by the substring fallback",
  context_only: "raised only by its session",
  current_turn: "the message itself",
  duplicate: "a duplicate",
  repeats_superseded: "repeats a superseded fact",
  question: "a question",
  contentless: "says nothing",
  assistant_reply: "an assistant reply",
  conversation_turn: "a conversation turn",
  other_subject: "about someone else",
  in_conversation: "in the current conversation",
  unknown_subject: "asks about someone unknown",
  over_budget: "over the character budget",
};

/** Options of `Memory.explainRecall`: a recall's options, and optionally one key to explain. */
export interface ExplainRecallOptions extends RecallOptions {
  /**
   * Explain this key (of the recall's namespace) even when it is not a candidate at all: the
   * trace's `focus` then says what its parts would have been and why no stage picked it.
   */
  key?: string;
}

/** The numbers a recall ran with (defaults applied), so that a trace can be read alone. */
export interface RecallTraceSettings {
  mode: SearchMode;
  /** How keyword and vector relevance were combined (hybrid recall with both stages). */
  mergeStrategy: MergeStrategy;
  /** Weights of the weighted mean of the keyword and vector parts. */
  weights: { keyword: number; vector: number };
  /** `rrf` only: the rank-fusion constant. */
  rrfK: number;
  /** Results scoring below this are dropped (`under_threshold`). */
  minScore: number;
  limit: number;
  /** Candidates each search stage is asked for (`limit x candidateMultiplier`). */
  pool: number;
  candidateMultiplier: number;
  /** Non-core entries: score = relevance x 2^(-age in days / halfLifeDays). */
  halfLifeDays: number;
  /** Cosine mapped to vector relevance: `floor` is 0, `full` is 1. */
  vectorCalibration: { floor: number; full: number };
  /** Question-word factors (`explain.intent`). */
  intentWeights: { questionPenalty: number; temporalBoost: number; speakerBoost: number };
  /** Conversational context weights (`explain.context`); both 0 turn it off. */
  contextWeights: { neighbor: number; session: number };
  /** Keyword relevance from which the vector stage is skipped (1: never). */
  ftsEarlyReturnScore: number;
}

/** One step of a recall and how many entries it produced. */
export interface RecallTraceStage {
  name:
    | "recent"
    | "keyword"
    | "vector"
    | "context"
    | "finalize"
    | "like"
    | "filter"
    | "collections"
    | "graph";
  /** Entries the step produced (candidates found, or results kept). */
  count: number;
  /** What the step did, in a sentence (why it was skipped, what it was asked for). */
  detail?: string;
}

/** One candidate of a traced recall: kept, or dropped with the reason. */
export interface RecallTraceCandidate {
  key: string;
  namespace: string;
  category: Category;
  /** The first 120 characters of the content. */
  preview: string;
  sessionId?: string;
  /** In the results. */
  kept: boolean;
  /** Why not (absent when kept). */
  reason?: RecallDropReason;
  /** The reason with its numbers ("score 0.21 < minScore 0.3"), or what kept it. */
  detail?: string;
  /** Its score (relevance x decay), as a result would carry it. */
  score: number;
  /** Every part of the score, as a result's `explain`. */
  explain: RecallExplain;
}

/** What a focused key (`key` option) would have scored, when no stage made it a candidate. */
export interface RecallTraceFocus {
  key: string;
  /** False when no entry has this key in the namespace. */
  exists: boolean;
  /** Its verdict in the trace, when it was a candidate. */
  candidate?: RecallTraceCandidate;
  /** Not a candidate: its parts, measured for it alone, and why no stage picked it. */
  keywordRelevance?: number;
  cosine?: number;
  vectorRelevance?: number;
  /** A plain sentence: why it is, or is not, in the results. */
  verdict: string;
}

/** The full account of one recall: settings, stages, and every candidate with its fate. */
export interface RecallTrace {
  query: string;
  namespace: string;
  settings: RecallTraceSettings;
  /** What the query asks (question-word handling) and its search terms. */
  intent: { question: boolean; when: boolean; terms: string[] };
  /** The stage that produced the results (as in each result's `explain.source`). */
  source: RecallExplain["source"];
  /** Why the vector stage did not run or failed. */
  degraded?: string;
  stages: RecallTraceStage[];
  /** Kept first (in result order), then dropped (best score first). */
  candidates: RecallTraceCandidate[];
  /** Exactly what `recall` returns for the same query and options. */
  results: MemoryEntry[];
  /** With the `key` option. */
  focus?: RecallTraceFocus;
}
