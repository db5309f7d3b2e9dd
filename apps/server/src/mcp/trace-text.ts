import { RECALL_DROP_REASONS, type RecallTraceCandidate } from "@memory/api";

/** Dropped candidates listed at most in a tool's text (the structured `trace` has them all). */
const WHY_NOT_LINES = 20;

/**
 * The "why not?" part of a traced tool answer: one line per dropped candidate with its reason
 * and numbers, then the focused key's verdict.
 */
export function whyNotText(
  candidates: readonly RecallTraceCandidate[],
  verdict: string | undefined,
): string {
  const dropped = candidates.filter((candidate) => !candidate.kept);
  const lines = dropped
    .slice(0, WHY_NOT_LINES)
    .map(
      (candidate) =>
        `- ${candidate.key}: ${candidate.reason ? (RECALL_DROP_REASONS[candidate.reason] ?? candidate.reason) : "dropped"}${candidate.detail ? ` (${candidate.detail})` : ""}`,
    );
  if (dropped.length > WHY_NOT_LINES)
    lines.push(`(${dropped.length - WHY_NOT_LINES} more in the structured trace)`);
  const parts = [
    dropped.length === 0 ? "Why not: nothing was dropped." : `Why not:\n${lines.join("\n")}`,
  ];
  if (verdict !== undefined) parts.push(verdict);
  return `\n\n${parts.join("\n")}`;
}
