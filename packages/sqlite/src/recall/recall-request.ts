import {
  InvalidInputError,
  normalizeFilter,
  type RecallOptions,
  type SearchMode,
  validateLimit,
} from "@memory/api";
import type { RecallRequest } from "./recall-pipeline.js";

/** Validates recall arguments (in this order, so the first bad one is reported) into a request. */
export function toRecallRequest(
  query: string,
  options: RecallOptions,
  defaultMode: SearchMode,
): RecallRequest {
  if (typeof query !== "string")
    throw new InvalidInputError(`query must be a string, got ${typeof query}.`);
  const limit = validateLimit(options.limit, 5);
  const filter = normalizeFilter(options);
  const mode = options.mode ?? defaultMode;
  if (!["hybrid", "bm25", "embedding"].includes(mode)) {
    throw new InvalidInputError(
      `mode must be hybrid, bm25 or embedding, got ${JSON.stringify(mode)}.`,
    );
  }
  if (
    options.minScore !== undefined &&
    (typeof options.minScore !== "number" || Number.isNaN(options.minScore))
  ) {
    throw new InvalidInputError(`minScore must be a number, got ${options.minScore}.`);
  }
  return { query, limit, mode, filter, minScore: options.minScore, signal: options.signal };
}
