/** Prefixes of machine-generated lines that must never be autosaved as memories. */
export const AUTOSAVE_SKIP_PREFIXES = [
  "[cron:",
  "[heartbeat",
  "[distilled_",
  "[memory context]",
] as const;

/**
 * True when a conversation message is worth autosaving: not empty, and no line of it is a
 * cron, heartbeat, distillation or injected memory-context line (which would otherwise feed
 * recall back into memory). Every line is checked, as the seed systems do: a marker line
 * further down (a memory context pasted after a question) skips the whole content. The prefix
 * check is case-insensitive and ignores a line's leading whitespace.
 */
export function shouldAutosave(content: string): boolean {
  if (content.trim().length === 0) return false;
  return !content.split(/\r\n|\r|\n/).some((line) => {
    const lower = line.trimStart().toLowerCase();
    return AUTOSAVE_SKIP_PREFIXES.some((prefix) => lower.startsWith(prefix));
  });
}
