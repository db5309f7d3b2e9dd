import type {
  Memory,
  MemoryEntry,
  MemorySettings,
  RecallDropReason,
  RecallOptions,
} from "@memory/api";
import { coreFacts, repeatsStaleFact } from "./context-answers.js";
import {
  carriesContent,
  echoesMessage,
  holdsWhole,
  matchesItself,
  relevanceOf,
  spokenLines,
  turnExclusion,
} from "./context-entries.js";
import { formatContext } from "./context-format.js";
import { type QuestionSubject, questionSubject } from "./context-names.js";
import { discoveryQuery, HISTORY_WINDOW_MS } from "./context-query.js";
import {
  type ContextRecallPurpose,
  ContextTraceCollector,
  type MemoryContextTrace,
} from "./context-trace.js";
import { demoteIgnored, tracked } from "./context-usage.js";
import { questionAnswers } from "./question-answers.js";

/** Options of {@link buildMemoryContext}. */
export interface MemoryContextOptions {
  /** Namespace to recall from; default `"default"`. */
  namespace?: string;
  /**
   * Record the entries shown as surfaced and return a `recallId` (backends with usage); default
   * true. The recalls the context makes to choose them are never tracked themselves.
   */
  track?: boolean;
  /**
   * Lowers, by this fraction, the relevance of entries shown at least 10 times and never used
   * (feedback), before the block is chosen; default 0 (off: measured, docs/retrieval-quality.md).
   */
  usageDemotion?: number;
  /**
   * The current conversation. It identifies, it does not filter: the discovery query takes in
   * the session's last messages (see `multiTurn`) and the message itself is never its own
   * context. A new session gets the same memory as an old one.
   */
  sessionId?: string;
  /** Recall only entries of this session (core memories are never session-scoped). */
  sessionFilter?: string;
  /**
   * With `sessionId`: the discovery query is the message plus up to 2 earlier user messages of
   * the session from the last 10 minutes (`discoveryQuery`); default true.
   */
  multiTurn?: boolean;
  /** Recalled entries at most; default 5 (the seeds' `auto_recall_limit`). */
  limit?: number;
  /**
   * Recalled entries whose relevance (before time decay: age orders entries, it does not push a
   * relevant one out) is below this are left out; default 0.4 (`auto_recall_min_score`).
   */
  minScore?: number;
  /**
   * The threshold, instead of `minScore` when lower, for a question that names someone the
   * store knows ("What did Maria paint?"): it is about this memory, so its best matches are shown
   * even when its framing words match weakly. Default: half of `minScore` (0.2 with the default
   * 0.4), so a stricter `minScore` stays stricter here too. A question naming only names the
   * store never heard of gets no context at all.
   */
  namedMinScore?: number;
  /**
   * Entries that match nothing themselves and were raised only by their session's context (the
   * turn after a matching one: "Luna and Oliver!" after "What are their names?") go in when they
   * carry content (three content words) and pass the threshold; default true. A contentless
   * neighbour ("I don't know yet.") never does.
   */
  includeNeighbours?: boolean;
  /**
   * Recall for the message at all (`auto_recall`); default true. False leaves only the standing
   * core memories.
   */
  recall?: boolean;
  /**
   * Top core memories added after the recalled ones. Default: 3 for an empty message (the
   * start of a session: standing facts are all there is), 0 otherwise, so that a message gets
   * only what recall finds relevant to it (a nonsense message gets nothing). Given, it applies
   * to every message. `0` adds none.
   */
  coreLimit?: number;
  /**
   * Include what the user said (`conversation` turns saved by `autosaveTurn`); default true:
   * the user's statements are the memory. Questions and contentless turns stay out either way
   * (see `includeQuestions`).
   */
  includeConversation?: boolean;
  /**
   * Include the assistant's replies saved by `autosaveTurn` (`daily_<timestamp>_...`) that carry
   * content; default true. A reply that says nothing ("Sure, noted!", "I don't know yet.")
   * never enters; `false` leaves every reply out.
   */
  includeReplies?: boolean;
  /** Include turns that are questions; default false (a question answers nothing). */
  includeQuestions?: boolean;
  /** Upper bound on the length of the whole block, in characters; default 2000. */
  maxChars?: number;
  /** Upper bound on one entry's line; longer contents are cut with an ellipsis. Default 500. */
  maxEntryChars?: number;
  /**
   * `"full"`: also return `trace`, every recall the context ran (traced, `Memory.explainRecall`)
   * and every entry it looked at, kept or dropped with the reason. The block is the same.
   */
  explain?: "full";
  /** Clock of the multi-turn window; default `() => new Date()`. */
  now?: () => Date;
  signal?: AbortSignal;
}

/** What {@link buildMemoryContext} returns. */
export interface MemoryContext {
  /** The `[Memory context]` block, or `""` when nothing was found. */
  text: string;
  /** The entries that made it into the block, in block order. */
  entries: MemoryEntry[];
  /** True when entries or characters were dropped to fit `maxChars`. */
  truncated: boolean;
  /** With `explain: "full"`: why each entry is, or is not, in the block. */
  trace?: MemoryContextTrace;
  /**
   * The id to give `Memory.feedback` with the keys the agent used (backends with usage, when
   * the block is not empty and `track` is not false); the entries shown count as surfaced.
   */
  recallId?: string;
}

export const MEMORY_CONTEXT_DEFAULTS = {
  recall: true,
  limit: 5,
  minScore: 0.4,
  /** `namedMinScore` is `minScore` times this unless given. */
  namedMinScoreRatio: 0.5,
  includeNeighbours: true,
  coreLimit: 3,
  includeConversation: true,
  includeReplies: true,
  includeQuestions: false,
  multiTurn: true,
  maxChars: 2000,
  maxEntryChars: 500,
} as const;

/**
 * The context options that memory.toml sets: `auto_recall` (recall at all), `auto_recall_limit`
 * and `auto_recall_min_score`. Callers (the server's `/v1/context`) pass them under their own.
 */
export function memoryContextOptionsFromConfig(
  memory: Pick<MemorySettings, "auto_recall" | "auto_recall_limit" | "auto_recall_min_score">,
): Pick<MemoryContextOptions, "recall" | "limit" | "minScore"> {
  return {
    recall: memory.auto_recall,
    limit: memory.auto_recall_limit,
    minScore: memory.auto_recall_min_score,
  };
}

export { NEAR_DUPLICATE_JACCARD } from "./context-entries.js";

export { MEMORY_CONTEXT_HEADER } from "./context-format.js";

/**
 * Builds the memory context to put in front of a user message: recall for the message (limit 5,
 * relevance before decay at least 0.4 by default), plus the top core memories when the message is
 * empty (or `coreLimit` is given), formatted as a `[Memory context]` block grouped by source
 * (core facts, then notes, then what the user said), each line with its date, cut to `maxChars`.
 *
 * Recalled entries are taken in order of relevance before decay; a question that names someone
 * the store knows has the lower `namedMinScore`. Left out: superseded entries and entries that
 * repeat one (a turn that states a fact that has changed since), the assistant's autosaved
 * replies without content, questions and contentless turns, entries raised only by their
 * session's context that say nothing themselves, entries that repeat the message itself, and
 * entries near-identical to one already in the block. With a
 * `sessionId`, the discovery query takes in the session's last messages. Backend failures are
 * not swallowed: they reject (the session history alone fails open).
 */
export async function buildMemoryContext(
  memory: Memory,
  userMessage: string,
  options: MemoryContextOptions = {},
): Promise<MemoryContext> {
  const settings = contextSettings(options, userMessage.trim());
  const { query, limit, coreLimit } = settings;
  const keyOptions = options.namespace === undefined ? {} : { namespace: options.namespace };
  const trace = options.explain === "full" ? new ContextTraceCollector() : undefined;
  const found = await recallForMessage(memory, options, settings, trace);
  const { answers, othersAnswers, superseded, subject } = found;
  const recalled = await demoteIgnored(
    memory,
    found.recalled,
    options.usageDemotion ?? 0,
    options.namespace,
  );
  const core = coreLimit <= 0 ? [] : await memory.topCore(coreLimit * 3, keyOptions);

  const seen = new Set<string>();
  const candidates: MemoryEntry[] = [];
  // A turn or note that repeats a superseded fact is as stale as the fact.
  const stale = recalled.filter((entry) => entry.supersededBy !== undefined);
  const inConversation = recentTurnOf(options);
  const answerKeys = new Set(answers.map((entry) => entry.key));
  // "added", or "replaced" when it took the place of an entry it holds whole; otherwise the
  // trace (if any) is told why not.
  const add = (entry: MemoryEntry, why: string): "added" | "replaced" | "dropped" => {
    const drop = (reason: RecallDropReason, detail: string) => {
      trace?.drop(entry, reason, detail);
      return "dropped" as const;
    };
    if (entry.supersededBy !== undefined)
      return drop("superseded", `superseded by ${JSON.stringify(entry.supersededBy)}`);
    if (seen.has(entry.key)) return drop("duplicate", "the same key is already in the block");
    if (inConversation(entry))
      return drop("in_conversation", "a turn of the current conversation's last minutes");
    if (query !== "" && echoesMessage(entry, query))
      return drop("current_turn", "it repeats the message itself");
    const old = stale.find((superseded) => echoesMessage(entry, superseded.content.trim()));
    if (old) return drop("repeats_superseded", `it repeats ${JSON.stringify(old.key)}, superseded`);
    const fact = repeatsStaleFact(entry, superseded);
    if (fact) return drop("repeats_superseded", `it holds ${JSON.stringify(fact.key)}, superseded`);
    // Near-identical to an entry already kept, line by line ("User: <fact>" repeats <fact>).
    const lines = spokenLines(entry.content);
    const twin = candidates.find((kept) => lines.some((line) => echoesMessage(kept, line)));
    if (twin) return drop("duplicate", `near-identical to ${JSON.stringify(twin.key)}, already in`);
    // A promoted fact and the turn it came from say the same: one place, not two.
    const holder = candidates.find((kept) => holdsWhole(kept, entry));
    if (holder)
      return drop("duplicate", `all its words are in ${JSON.stringify(holder.key)}, already in`);
    seen.add(entry.key);
    trace?.keep(entry, why);
    const held = candidates.findIndex(
      (kept) => !answerKeys.has(kept.key) && holdsWhole(entry, kept),
    );
    const replaced = candidates[held];
    if (replaced === undefined) {
      candidates.push(entry);
      return "added";
    }
    // The turn says all the fact said, and more: it takes the fact's place.
    candidates[held] = entry;
    seen.delete(replaced.key);
    trace?.replace(
      replaced,
      `all its words are in ${JSON.stringify(entry.key)}, which took its place`,
    );
    return "replaced";
  };
  let recalledCount = 0;
  // Stored facts that answer the question (its subject and attribute) come first, whatever
  // their relevance to its words; with an answer, the same attribute of someone else stays out.
  for (const entry of answers) {
    if (recalledCount >= limit) break;
    const exclusion = turnExclusion(entry, settings);
    if (exclusion !== undefined) {
      trace?.excluded(entry, exclusion);
      continue;
    }
    if (add(entry, "a standing fact that answers the question") === "added") recalledCount++;
  }
  const minScore = thresholdFor(subject, settings);
  for (const entry of byRelevance(recalled)) {
    if (recalledCount >= limit) break;
    // A pinned entry is always eligible: a person said it matters.
    if (relevanceOf(entry) < minScore && !entry.pinned) {
      trace?.drop(entry, "under_threshold", underThreshold(entry, minScore, subject));
      continue;
    }
    if (!matchesItself(entry) && !(settings.includeNeighbours && carriesContent(entry))) {
      trace?.drop(entry, "context_only", contextOnly(entry));
      continue;
    }
    const exclusion = turnExclusion(entry, settings);
    if (exclusion !== undefined) {
      trace?.excluded(entry, exclusion);
      continue;
    }
    if (answers.length > 0 && othersAnswers(entry)) {
      trace?.drop(entry, "other_subject", "the same attribute of someone else (an answer exists)");
      continue;
    }
    const why = `relevance ${relevanceOf(entry).toFixed(4)} >= ${thresholdName(subject)} ${minScore}`;
    if (add(entry, why) === "added") recalledCount++;
  }
  let coreCount = 0;
  for (const entry of core) {
    if (coreCount >= coreLimit) break;
    if (add(entry, "a top core memory (coreLimit)") === "added") coreCount++;
  }
  const built = await tracked(memory, formatContext(candidates, settings), query, options);
  if (!trace) return built;
  trace.overLimit([...answers, ...recalled], limit, "recalled");
  trace.overLimit(core, coreLimit, "core");
  trace.overBudget(candidates, built.entries, settings.maxChars);
  return { ...built, trace: trace.build(userMessage, traceSettings(settings), built.entries) };
}

/**
 * Recalled entries in order of relevance before decay: age orders the block, it does not decide
 * which relevant entries fit (a question about a month-old trip must not lose the trip's turn
 * to this week's small talk). Equal relevance keeps recall's order.
 */
function byRelevance(entries: readonly MemoryEntry[]): MemoryEntry[] {
  return [...entries].sort((a, b) => relevanceOf(b) - relevanceOf(a));
}

/** The threshold a question gets: lower when it names someone the store knows. */
function thresholdFor(subject: QuestionSubject, settings: ContextSettings): number {
  return subject === "known"
    ? Math.min(settings.minScore, settings.namedMinScore)
    : settings.minScore;
}

function thresholdName(subject: QuestionSubject): string {
  return subject === "known" ? "namedMinScore (the question names someone known)" : "minScore";
}

function underThreshold(entry: MemoryEntry, minScore: number, subject: QuestionSubject): string {
  return `relevance before decay ${relevanceOf(entry).toFixed(4)} < the context's ${thresholdName(subject)} ${minScore}`;
}

function contextOnly(entry: MemoryEntry): string {
  const lift = entry.explain?.context ?? 0;
  return `it matches nothing itself (keyword and vector relevance 0); its session added ${lift.toFixed(4)}`;
}

function traceSettings(settings: ContextSettings) {
  const { query: _query, ...rest } = settings;
  return rest;
}

type ContextSettings = ReturnType<typeof contextSettings>;

/**
 * With a `sessionId`: whether an entry is a turn of the current conversation from the last
 * `HISTORY_WINDOW_MS`. The agent has those messages in front of it already (they are the
 * conversation), so repeating them as memory is noise ("Let's talk about Caroline." returned for
 * "What did she research?"). Core facts stay: they are the memory, whoever said them last.
 */
function recentTurnOf(options: MemoryContextOptions): (entry: MemoryEntry) => boolean {
  const sessionId = options.sessionId;
  if (sessionId === undefined) return () => false;
  const since = (options.now ?? (() => new Date()))().getTime() - HISTORY_WINDOW_MS;
  return (entry) =>
    entry.category !== "core" &&
    entry.sessionId === sessionId &&
    Date.parse(entry.createdAt) >= since;
}

function contextSettings(options: MemoryContextOptions, query: string) {
  const defaults = MEMORY_CONTEXT_DEFAULTS;
  const minScore = options.minScore ?? defaults.minScore;
  return {
    query,
    recall: options.recall ?? defaults.recall,
    limit: options.limit ?? defaults.limit,
    minScore,
    namedMinScore: options.namedMinScore ?? minScore * defaults.namedMinScoreRatio,
    includeNeighbours: options.includeNeighbours ?? defaults.includeNeighbours,
    coreLimit: options.coreLimit ?? (query === "" ? defaults.coreLimit : 0),
    includeConversation: options.includeConversation ?? defaults.includeConversation,
    includeReplies: options.includeReplies ?? defaults.includeReplies,
    includeQuestions: options.includeQuestions ?? defaults.includeQuestions,
    maxChars: options.maxChars ?? defaults.maxChars,
    maxEntryChars: options.maxEntryChars ?? defaults.maxEntryChars,
  };
}

/**
 * Recall for the message, and with a session for its discovery query too: the message's own
 * results first (its scores decide), then what only the multi-turn query found. Asks for more
 * than `limit` so that entries left out afterwards do not leave the block short; the threshold
 * is applied afterwards on relevance before decay, so recall runs with `minScore: 0`.
 */
async function recallForMessage(
  memory: Memory,
  options: MemoryContextOptions,
  settings: ContextSettings,
  trace?: ContextTraceCollector,
): Promise<{
  recalled: MemoryEntry[];
  answers: MemoryEntry[];
  othersAnswers: (entry: MemoryEntry) => boolean;
  /** Superseded core facts: a turn that repeats one is stale. */
  superseded: MemoryEntry[];
  subject: QuestionSubject;
}> {
  const { query, limit } = settings;
  // An empty message would recall "the most recent entries", which is noise, not context.
  if (query === "" || limit <= 0 || !settings.recall) {
    return nothingRecalled();
  }
  const recallOptions = {
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    track: false,
    limit: limit * 4,
    minScore: 0,
    // Superseded entries come back only to recognise copies of their stale text.
    includeSuperseded: true,
    ...(options.sessionFilter === undefined ? {} : { sessionId: options.sessionFilter }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const multiTurn = options.multiTurn ?? MEMORY_CONTEXT_DEFAULTS.multiTurn;
  const discovery =
    options.sessionId === undefined || !multiTurn
      ? query
      : await discoveryQuery(memory, query, {
          sessionId: options.sessionId,
          ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
          now: (options.now ?? (() => new Date()))(),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
  // Traced, each recall is `explainRecall`: the same results, and its drops besides.
  const recall = (text: string, purpose: ContextRecallPurpose, recallOptions: RecallOptions) =>
    trace
      ? memory.explainRecall(text, recallOptions).then((traced) => {
          trace.recalled(purpose, traced);
          return traced.results;
        })
      : memory.recall(text, recallOptions);
  if (trace && discovery !== query) trace.discoveryQuery = discovery;
  const scope = {
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const [subject, own, found, facts] = await Promise.all([
    questionSubject(memory, query, scope),
    recall(query, "message", recallOptions),
    discovery === query ? Promise.resolve([]) : recall(discovery, "discovery", recallOptions),
    coreFacts(memory, scope),
  ]);
  if (subject === "unknown") {
    for (const entry of own) {
      trace?.drop(entry, "unknown_subject", "the question names no one the store has heard of");
    }
    return nothingRecalled("unknown");
  }
  const answered = questionAnswers(memory, query, facts.current);
  // Nothing relevant enough: recall again with the threshold itself, so the engine's own
  // fallbacks for a weak query (its substring stage) get their say, as with any recall.
  const minScore = thresholdFor(subject, settings);
  const passes = own.some((entry) => relevanceOf(entry) >= minScore && matchesItself(entry));
  const fallback = passes ? [] : await recall(query, "fallback", { ...recallOptions, minScore });
  // By key: the message's own results first, then the multi-turn query's; a fallback result
  // replaces the message's own scoring of the same entry.
  const byKey = new Map<string, MemoryEntry>();
  for (const entry of [...own, ...found]) if (!byKey.has(entry.key)) byKey.set(entry.key, entry);
  for (const entry of fallback) byKey.set(entry.key, entry);
  return { recalled: [...byKey.values()], ...answered, superseded: facts.superseded, subject };
}

type RecalledForMessage = Awaited<ReturnType<typeof recallForMessage>>;

function nothingRecalled(subject: QuestionSubject = "none"): RecalledForMessage {
  return { recalled: [], answers: [], othersAnswers: () => false, superseded: [], subject };
}
