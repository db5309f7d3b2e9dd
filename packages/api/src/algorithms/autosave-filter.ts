/** Prefixes of machine-generated lines that must never be autosaved as memories. */
export const AUTOSAVE_SKIP_PREFIXES = [
  "[cron:",
  "[heartbeat",
  "[distilled_",
  "[memory context]",
] as const;

/**
 * True when a conversation line is worth autosaving: not empty, and not a cron, heartbeat,
 * distillation or injected memory-context line (which would otherwise feed recall back into
 * memory). The prefix check is case-insensitive and ignores leading whitespace.
 */
export function shouldAutosave(content: string): boolean {
  const text = content.trim();
  if (text.length === 0) return false;
  const lower = text.toLowerCase();
  return !AUTOSAVE_SKIP_PREFIXES.some((prefix) => lower.startsWith(prefix));
}
