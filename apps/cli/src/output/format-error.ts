import { MemoryError } from "@memory/api";
import { CommandError, UsageError } from "../cli/cli-errors.js";

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

function describe(error: unknown): string {
  if (error instanceof Error) return oneLine(error.message) || error.name;
  return oneLine(String(error));
}

/**
 * The one line a user sees: what went wrong and what to do. `@memory` errors already say what
 * to do; anything else is unexpected, so the line points at `--verbose`.
 */
export function formatErrorLine(error: unknown): string {
  if (error instanceof UsageError) return `${describe(error)} (see \`memory --help\`)`;
  if (error instanceof CommandError || MemoryError.isInstance(error)) return describe(error);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const prefix = typeof code === "string" ? `${code}: ` : "";
  return `${prefix}${describe(error)} (unexpected; run again with --verbose for the cause chain)`;
}

/** The `cause` chain, outermost first, for `--verbose`; the stack of the innermost error last. */
export function formatCauseChain(error: unknown): string[] {
  const lines: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  let innermost: unknown = error;
  let depth = 0;
  while (current !== undefined && current !== null && !seen.has(current) && depth < 10) {
    seen.add(current);
    const name = current instanceof Error ? current.name : typeof current;
    const code = MemoryError.isInstance(current) ? ` [${current.code}]` : "";
    const errno = (current as NodeJS.ErrnoException).code;
    const extra = !code && typeof errno === "string" ? ` [${errno}]` : "";
    lines.push(`${depth === 0 ? "" : "caused by: "}${name}${code}${extra}: ${describe(current)}`);
    innermost = current;
    current = current instanceof Error ? current.cause : undefined;
    depth += 1;
  }
  if (innermost instanceof Error && innermost.stack) {
    lines.push(
      ...innermost.stack
        .split("\n")
        .slice(1)
        .map((line) => `  ${line.trim()}`),
    );
  }
  return lines;
}
