import {
  InvalidInputError,
  type NormalizedFilter,
  normalizeFilter,
  type RecallOptions,
  type RetrievalSettings,
  type SearchMode,
  validateLimit,
  validateQuery,
} from "@memory/api";

import { recallExclusions } from "../reserved-categories.js";

const MODES: readonly SearchMode[] = ["hybrid", "bm25", "embedding"];

/** A recall's filter: always one namespace. */
export type RecallFilter = NormalizedFilter & { namespace: string };

/** One recall, validated, with the settings' defaults applied. */
export interface RecallRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  filter: RecallFilter;
  minScore: number;
  /** The caller chose `minScore` (it then applies to "most recent entries" too). */
  explicitMinScore: boolean;
  signal: AbortSignal | undefined;
}

/** Validates a recall's query and options (the errors name the option) and applies defaults. */
export function recallRequest(
  query: string,
  options: RecallOptions,
  settings: RetrievalSettings,
  now: number,
): RecallRequest {
  validateQuery(query);
  const limit = validateLimit(options.limit, 5);
  const normalized = normalizeFilter(options) as RecallFilter;
  const excludeCategories = recallExclusions(normalized.categories);
  const filter: RecallFilter = excludeCategories
    ? { ...normalized, excludeCategories }
    : normalized;
  if (options.includeSnoozed !== undefined && typeof options.includeSnoozed !== "boolean")
    throw new InvalidInputError(
      `includeSnoozed must be true or false, got ${JSON.stringify(options.includeSnoozed)}.`,
    );
  // Snoozed entries (`Memory.snooze`) stay out until their time comes.
  if (!options.includeSnoozed) filter.awakeAt = new Date(now).toISOString();
  const mode = options.mode ?? settings.searchMode;
  if (!MODES.includes(mode)) {
    throw new InvalidInputError(
      `mode must be hybrid, bm25 or embedding, got ${JSON.stringify(mode)}.`,
    );
  }
  const explicitMinScore = options.minScore !== undefined;
  if (explicitMinScore && (typeof options.minScore !== "number" || Number.isNaN(options.minScore)))
    throw new InvalidInputError(
      `minScore must be a number (0 keeps every result), got ${options.minScore}.`,
    );
  return {
    query,
    limit,
    mode,
    filter,
    minScore: options.minScore ?? settings.minScore,
    explicitMinScore,
    signal: options.signal,
  };
}
