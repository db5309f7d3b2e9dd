import type {
  Category,
  ChatModel,
  ConflictCandidate,
  ConflictDecision,
  Memory,
  MemoryEntry,
  RetrievalSettings,
  SearchMode,
} from "@memory/api";
import { detectConflict } from "../algorithms/contradiction.js";
import { jaccardSimilarity } from "../algorithms/jaccard.js";
import { confirmWithChat } from "./confirm-with-chat.js";
import { conflictQuery } from "./conflict-query.js";
import { decideConflict } from "./facts/decide-conflict.js";
import { factReading } from "./facts/fact-reading.js";
import { readFact } from "./facts/read-fact.js";
import { SubjectAliases } from "./facts/subject-aliases.js";
import { differentSubjects } from "./subject.js";

/**
 * How many candidates are read against a new entry: enough that the older fact about the same
 * subject and attribute is among them when other people's facts share more of its words.
 */
export const CONFLICT_CANDIDATES = 20;

/**
 * Longest entry the check reads as a fact (characters). A longer text is a document or a
 * transcript, not one fact: storing it runs no check (no query), and it is never superseded.
 */
export const CONFLICT_MAX_CHARS = 1000;

/** Default of `conflict_confirm_timeout_ms`. */
export const CONFIRM_TIMEOUT_MS = 3000;

/** The conflict options of a backend (`conflict_*` in memory.toml; the newer ones optional). */
export type ConflictSettings = Pick<
  RetrievalSettings,
  "conflictMode" | "conflictThreshold" | "conflictCategories"
> &
  Partial<
    Pick<
      RetrievalSettings,
      "textLanguage" | "conflictPolicy" | "conflictConfirm" | "conflictConfirmTimeoutMs"
    >
  >;

/** `conflict_categories` as a list ("core, preferences" -> ["core", "preferences"]). */
export function conflictCategoryList(categories: string): Category[] {
  return categories
    .split(",")
    .map((category) => category.trim())
    .filter((category) => category !== "");
}

/** Whether storing `entry` is checked for conflicts under these settings. */
export function conflictCheckApplies(entry: MemoryEntry, settings: ConflictSettings): boolean {
  return (
    settings.conflictMode !== "off" &&
    entry.content.length <= CONFLICT_MAX_CHARS &&
    conflictCategoryList(settings.conflictCategories).includes(entry.category)
  );
}

/**
 * Scores an older text against a newer one: the similarity of `detectConflict` plus its
 * contradiction signals, with one more rule: texts about different subjects ("Alice moved to
 * Paris" / "Bob lives in Berlin") never conflict, whatever their score.
 */
export function scoreConflictPair(input: {
  older: string;
  newer: string;
  mode: "jaccard" | "combined";
  threshold: number;
  cosine?: number | undefined;
  bm25?: number;
}): Omit<ConflictCandidate, "key"> {
  const result = detectConflict({
    older: input.older,
    newer: input.newer,
    mode: input.mode,
    threshold: input.threshold,
    ...(input.cosine === undefined ? {} : { cosine: input.cosine }),
    bm25Overlap: input.bm25 ?? 0,
  });
  const differentSubject = differentSubjects(input.older, input.newer);
  return {
    jaccard: jaccardSimilarity(input.older, input.newer),
    ...(input.cosine === undefined || input.mode !== "combined" ? {} : { cosine: input.cosine }),
    bm25: input.bm25 ?? 0,
    similarity: result.similarity,
    signals: result.signals,
    score: result.score,
    ...(differentSubject === undefined ? {} : { differentSubject }),
    superseded: result.conflict && differentSubject === undefined,
  };
}

/** Options of {@link checkConflicts}. */
export interface CheckConflictsOptions {
  /** How many candidates are read (default {@link CONFLICT_CANDIDATES}). */
  candidates?: number;
  /** The candidate query's text (default `conflictQuery(content)`; the facade passes its own). */
  query?: string;
  /** The model of `conflict_confirm = "chat"`; without one the rules decide alone. */
  chatModel?: ChatModel | undefined;
  /** The candidate query's mode (`bm25` when the new entry has no vector yet: deferred embedding). */
  searchMode?: SearchMode;
}

/**
 * Conflict detection for a new entry (the one implementation the facade runs inside `store`, and
 * `consolidateTurn` after it): finds candidates of the same namespace and checked categories with
 * ONE recall (the text plus the subject's head and the attribute's surface forms), reads each
 * candidate's fact and decides with the rules (`decideConflict`), optionally confirms the
 * decisions close to the line with a chat model, and marks the superseded entries (policy
 * `supersede`) or only records them (`flag`). `text_language = "none"` has no reader: the
 * similarity score of earlier versions decides, and the decision says so (`fallback`). Returns
 * undefined when the check does not apply (mode `off`, or a category that is not checked).
 */
export async function checkConflicts(
  memory: Pick<Memory, "recall" | "markSuperseded">,
  entry: MemoryEntry,
  settings: ConflictSettings,
  options: CheckConflictsOptions = {},
): Promise<ConflictDecision | undefined> {
  if (!conflictCheckApplies(entry, settings)) return undefined;
  const categories = conflictCategoryList(settings.conflictCategories);
  const limit = options.candidates ?? CONFLICT_CANDIDATES;
  const reading = settings.textLanguage !== "none";
  const newer = reading ? readFact(entry.content) : undefined;
  const query = options.query ?? (newer ? conflictQuery(entry.content, newer) : entry.content);
  const found = await memory.recall(query, {
    namespace: entry.namespace,
    categories,
    limit: limit + 1,
    minScore: 0,
    ...(options.searchMode === undefined ? {} : { mode: options.searchMode }),
  });
  const contents = new Map<string, string>();
  const candidates: (ConflictCandidate & { near?: boolean })[] = [];
  // The candidates: other entries of fact size, at most `limit`; only these are read.
  const considered = found
    .filter((older) => older.key !== entry.key && older.content.length <= CONFLICT_MAX_CHARS)
    .slice(0, limit);
  const facts = new Map(
    reading ? considered.map((older) => [older.key, readFact(older.content)] as const) : [],
  );
  const aliases = new SubjectAliases(newer ? [...facts.values(), newer] : []);
  const resolvedNewer = newer && { ...newer, subject: aliases.resolve(newer.subject) };
  for (const older of considered) {
    contents.set(older.key, older.content);
    const cosine = older.explain?.cosine;
    const evidence = scoreConflictPair({
      older: older.content,
      newer: entry.content,
      mode: settings.conflictMode === "jaccard" ? "jaccard" : "combined",
      threshold: settings.conflictThreshold,
      ...(cosine === undefined ? {} : { cosine }),
      bm25: older.explain?.keywordRelevance ?? 0,
    });
    if (!newer) {
      candidates.push({ key: older.key, ...evidence });
      continue;
    }
    const fact = facts.get(older.key)!;
    const rule = decideConflict(
      { ...fact, subject: aliases.resolve(fact.subject) },
      resolvedNewer ?? newer,
    );
    const { differentSubject: _old, ...rest } = evidence;
    candidates.push({
      key: older.key,
      ...rest,
      ...(rule.rule === "different-subjects" ? { differentSubject: rule.reason } : {}),
      superseded: rule.supersede && older.content.trim() !== entry.content.trim(),
      reading: factReading(fact),
      rule: rule.rule,
      reason: rule.reason,
      decidedBy: "rules",
      near: rule.near,
    });
  }
  const decision: ConflictDecision = newer
    ? {
        mode: "rules",
        threshold: settings.conflictThreshold,
        policy: settings.conflictPolicy ?? "supersede",
        reading: factReading(newer),
        superseded: [],
        candidates,
      }
    : {
        mode: settings.conflictMode === "jaccard" ? "jaccard" : "combined",
        threshold: settings.conflictThreshold,
        policy: settings.conflictPolicy ?? "supersede",
        fallback:
          'text_language = "none": no fact reader for this language, the similarity score decides',
        superseded: [],
        candidates,
      };
  if (newer && settings.conflictConfirm === "chat" && options.chatModel) {
    await confirmNear(options.chatModel, entry.content, candidates, contents, decision, settings);
  }
  for (const candidate of candidates) delete candidate.near;
  candidates.sort(
    (a, b) =>
      Number(b.superseded) - Number(a.superseded) ||
      b.score - a.score ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  if (decision.policy === "link") {
    // Both stay current: the caller relates the new entry to each with `contradicts`, in the
    // store's own write batch (store-entry.ts).
    decision.linked = [];
    for (const candidate of candidates) {
      if (!candidate.superseded) continue;
      candidate.superseded = false;
      candidate.linked = true;
      decision.linked.push(candidate.key);
    }
    return decision;
  }
  if (decision.policy === "flag") {
    decision.flagged = [];
    for (const candidate of candidates) {
      if (!candidate.superseded) continue;
      candidate.superseded = false;
      candidate.flagged = true;
      decision.flagged.push(candidate.key);
    }
    return decision;
  }
  for (const candidate of candidates) {
    if (!candidate.superseded) continue;
    if (await memory.markSuperseded(candidate.key, entry.key, { namespace: entry.namespace })) {
      decision.superseded.push(candidate.key);
    } else {
      candidate.superseded = false; // forgotten in the meantime
    }
  }
  return decision;
}

/** The model's verdicts replace the rules' decisions close to the line; a failure changes nothing. */
async function confirmNear(
  model: ChatModel,
  newer: string,
  candidates: (ConflictCandidate & { near?: boolean })[],
  contents: ReadonlyMap<string, string>,
  decision: ConflictDecision,
  settings: ConflictSettings,
): Promise<void> {
  const near = candidates.filter((candidate) => candidate.near);
  if (near.length === 0) return;
  const result = await confirmWithChat(
    model,
    newer,
    near.map((candidate) => ({
      key: candidate.key,
      older: contents.get(candidate.key) ?? "",
      rulesSupersede: candidate.superseded,
    })),
    settings.conflictConfirmTimeoutMs ?? CONFIRM_TIMEOUT_MS,
  );
  if ("failure" in result) {
    decision.confirmation = { asked: near.length, answered: 0, failure: result.failure };
    return;
  }
  decision.confirmation = { asked: near.length, answered: result.verdicts.size };
  for (const candidate of near) {
    const verdict = result.verdicts.get(candidate.key);
    if (!verdict) continue;
    candidate.superseded = verdict.replaces;
    candidate.decidedBy = "chat";
    candidate.reason = `${candidate.reason}; the model says it ${verdict.replaces ? "is" : "is not"} replaced${verdict.reason ? `: ${verdict.reason}` : ""}`;
  }
}

/** The entry with its conflict decision attached (unchanged when there is none). */
export function withConflict(
  entry: MemoryEntry,
  decision: ConflictDecision | undefined,
): MemoryEntry {
  return decision === undefined ? entry : { ...entry, conflict: decision };
}
