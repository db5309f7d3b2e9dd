import { consolidateTurn } from "@memory/lifecycle";
import { UsageError } from "../cli/cli-errors.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { readStdin } from "../io/read-stdin.js";

export interface ConsolidateOptions {
  namespace?: string;
  session?: string;
  reply?: string;
  /** `--files`: consolidate the daily files into MEMORY.md instead (consolidate-files.ts). */
  files?: boolean;
  days?: number;
  force?: boolean;
  dryRun?: boolean;
}

async function readTurn(words: readonly string[], stdinIsTerminal: boolean): Promise<string> {
  if (words.length > 0 && !(words.length === 1 && words[0] === "-")) return words.join(" ");
  if (stdinIsTerminal) {
    throw new UsageError(
      'no turn: pass the user message as an argument (memory consolidate "text") or on stdin',
    );
  }
  return (await readStdin()).replace(/\r?\n$/, "");
}

/**
 * `memory consolidate "<user message>" [--reply <text>]`: consolidates one turn without an LLM
 * into the configured store: a daily entry for the turn, and the message promoted to core when
 * important enough (importance >= 0.8, at least 10 characters), after the conflict check (the
 * store's `conflict_mode`, else `combined`, at `conflict_threshold`). Prints what was stored,
 * promoted and superseded.
 */
const consolidate: CommandHandler<ConsolidateOptions> = async (context, args, options) => {
  const { namespace, session, reply, files, days, force, dryRun } = options;
  const [words = []] = args as [string[] | undefined];
  if (files) {
    if (session !== undefined || reply !== undefined)
      throw new UsageError(
        "--session and --reply consolidate one turn; they do not go with --files",
      );
    const { consolidateFiles } = await import("./consolidate-files.js");
    return consolidateFiles(context, words, {
      ...(namespace === undefined ? {} : { namespace }),
      ...(days === undefined ? {} : { days }),
      ...(force === undefined ? {} : { force }),
      ...(dryRun === undefined ? {} : { dryRun }),
    });
  }
  if (days !== undefined || force || dryRun)
    throw new UsageError(
      "--days, --force and --dry-run go with --files (memory consolidate --files)",
    );
  const userMessage = await readTurn(words, context.output.terminal.interactiveInput);
  const { config } = context.config();
  const { memory } = await context.open("configured");
  const report = await consolidateTurn(
    memory,
    {
      userMessage,
      ...(reply === undefined ? {} : { assistantReply: reply }),
      ...(session === undefined ? {} : { sessionId: session }),
      ...(namespace === undefined ? {} : { namespace }),
    },
    { conflictThreshold: config.memory.conflict_threshold },
  );
  context.output.result(report, () => {
    if (report.skipped === "empty") return "nothing to consolidate: the message is empty";
    if (report.skipped === "filtered")
      return "not consolidated: the autosave filter skips this turn (cron, heartbeat or memory context)";
    const lines = [`stored ${report.daily!.key} (daily)`];
    if (report.promoted) {
      lines.push(
        `promoted to core as ${report.promoted.key} (importance ${report.importance.toFixed(2)})`,
      );
    } else {
      lines.push(
        report.notPromoted === "too-short"
          ? "not promoted: shorter than 10 characters"
          : `not promoted: importance ${report.importance.toFixed(2)} < 0.80 (no decision, rule or always/never/must)`,
      );
    }
    for (const key of report.superseded) lines.push(`superseded ${key}`);
    return lines;
  });
};

export default consolidate;
