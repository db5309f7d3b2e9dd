import type {
  Category,
  ConflictCandidate,
  ConflictDecision,
  Memory,
  MemoryEntry,
  RetrievalSettings,
} from "@memory/api";
import { detectConflict } from "../algorithms/contradiction.js";
import { jaccardSimilarity } from "../algorithms/jaccard.js";
import { differentSubjects } from "./subject.js";

/** How many of the nearest entries are weighed against a new one. */
export const CONFLICT_CANDIDATES = 5;

/** The conflict options of a backend (`conflict_*` in memory.toml). */
export type ConflictSettings = Pick<
  RetrievalSettings,
  "conflictMode" | "conflictThreshold" | "conflictCategories"
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
  cosine?: number;
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

/**
 * Conflict detection for an entry just stored through `memory` (the shared implementation every
 * backend calls at the end of `store`). Looks up the nearest entries of the same namespace and
 * of the checked categories with the memory's own recall (calibrated relevance, so the BM25 part
 * and the cosine mean the same on every backend), scores each pair, and marks the older entries
 * that pass the threshold superseded by the new key. Returns undefined when the check does not
 * apply (mode `off`, or a category that is not checked).
 */
export async function checkConflicts(
  memory: Pick<Memory, "recall" | "markSuperseded">,
  entry: MemoryEntry,
  settings: ConflictSettings,
  options: { candidates?: number; mode?: "jaccard" | "combined" } = {},
): Promise<ConflictDecision | undefined> {
  const mode =
    options.mode ?? (settings.conflictMode === "off" ? undefined : settings.conflictMode);
  if (mode === undefined) return undefined;
  const categories = conflictCategoryList(settings.conflictCategories);
  if (!categories.includes(entry.category)) return undefined;
  const limit = options.candidates ?? CONFLICT_CANDIDATES;
  const found = await memory.recall(entry.content, {
    namespace: entry.namespace,
    categories,
    limit: limit + 1,
    minScore: 0,
  });
  const candidates: ConflictCandidate[] = [];
  for (const older of found) {
    if (older.key === entry.key || candidates.length >= limit) continue;
    const cosine = older.explain?.cosine;
    candidates.push({
      key: older.key,
      ...scoreConflictPair({
        older: older.content,
        newer: entry.content,
        mode,
        threshold: settings.conflictThreshold,
        ...(cosine === undefined ? {} : { cosine }),
        bm25: older.explain?.keywordRelevance ?? 0,
      }),
    });
  }
  candidates.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const superseded: string[] = [];
  for (const candidate of candidates) {
    if (!candidate.superseded) continue;
    if (await memory.markSuperseded(candidate.key, entry.key, { namespace: entry.namespace })) {
      superseded.push(candidate.key);
    } else {
      candidate.superseded = false; // forgotten in the meantime
    }
  }
  return { mode, threshold: settings.conflictThreshold, superseded, candidates };
}

/** The entry with its conflict decision attached (unchanged when there is none). */
export function withConflict(
  entry: MemoryEntry,
  decision: ConflictDecision | undefined,
): MemoryEntry {
  return decision === undefined ? entry : { ...entry, conflict: decision };
}
