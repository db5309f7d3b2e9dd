import {
  type MineFormat,
  type MineReport,
  type MineSkip,
  mineConversations,
} from "@memory/lifecycle";
import { EXIT_CODES } from "../cli/exit-codes.js";
import { interruptible } from "../cli/interruption.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { createProgress } from "../output/progress.js";
import { requireChatModel } from "../store/open-chat-model.js";

export interface MineCommandOptions {
  format?: string;
  category?: string;
  namespace?: string;
  dryRun?: boolean;
  synthesize?: boolean;
}

// A human report lists this many skipped items and previews; --json lists them all.
const SHOWN = 20;
// Notes, not problems: a folder holds links and unrelated files; they do not fail the command.
const NOTES = new Set<MineSkip["code"]>(["SYMLINK", "UNKNOWN_FORMAT"]);

function where(skip: MineSkip): string {
  return skip.line === undefined ? skip.path : `${skip.path}:${skip.line}`;
}

function humanLines(report: MineReport): string[] {
  const lines = [
    `${report.dryRun ? "would store" : "stored"} ${report.dryRun ? report.exchanges : report.stored} exchanges from ${report.conversations} conversations in ${report.files} files`,
  ];
  if (report.interrupted)
    lines.push(
      "interrupted: what was stored is kept; run the same command again to finish it (nothing is duplicated)",
    );
  for (const item of (report.preview ?? []).slice(0, SHOWN))
    lines.push(
      `  ${item.key}  ${item.createdAt ?? "(no time)"}  ${item.preview.replace(/\s+/g, " ").slice(0, 80)}`,
    );
  if ((report.preview?.length ?? 0) > SHOWN)
    lines.push(`  ... ${report.exchanges - SHOWN} more (see --json)`);
  if (report.synthesis) {
    const { extracted, saved, failed, problems } = report.synthesis;
    lines.push(`synthesis: ${extracted} facts extracted, ${saved} saved, ${failed} failed`);
    const { stored, closed, dropped } = report.synthesis.triples;
    if (stored.length + closed.length + dropped.predicate + dropped.name > 0)
      lines.push(
        `knowledge graph: ${stored.length} triples stored, ${closed.length} closed, ${dropped.predicate + dropped.name} dropped`,
      );
    for (const problem of problems.slice(0, SHOWN)) lines.push(`  ${problem}`);
  }
  if (report.skipped.length > 0) {
    lines.push(`skipped ${report.skipped.length}:`);
    for (const skip of report.skipped.slice(0, SHOWN))
      lines.push(`  ${where(skip)}: ${skip.code}: ${skip.reason}`);
    if (report.skipped.length > SHOWN)
      lines.push(`  ... ${report.skipped.length - SHOWN} more (see --json)`);
  }
  if (report.dryRun) lines.push("dry run: nothing was stored.");
  return lines;
}

/**
 * `memory mine <paths...>`: imports past conversations through `mineConversations`
 * (docs/mine.md). Exit 1 when a file, line or conversation could not be read or a fact could not
 * be extracted (the rest is imported); symlinks and unrelated files are only reported. SIGINT
 * stops after the current batch (exit 130).
 */
const mineCommand: CommandHandler<MineCommandOptions> = async (context, args, options) => {
  const [paths] = args as [string[]];
  const { config } = context.config();
  const chatModel =
    options.synthesize && !options.dryRun
      ? requireChatModel(config.memory, "memory mine --synthesize")
      : undefined;
  const { memory } = await context.open("configured");
  const progress = await createProgress(context.output, "mine", "exchanges");
  let report: MineReport;
  try {
    report = await interruptible((signal) =>
      mineConversations(memory, paths, {
        signal,
        dryRun: options.dryRun === true,
        ...(options.format === undefined ? {} : { format: options.format as MineFormat }),
        ...(options.category === undefined ? {} : { category: options.category }),
        ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
        ...(chatModel ? { chatModel } : {}),
        onProgress: ({ exchanges }) => progress.update(exchanges),
      }),
    );
  } finally {
    progress.stop();
  }
  const problems = report.skipped.filter((skip) => !NOTES.has(skip.code)).length;
  if (problems > 0 || (report.synthesis?.failed ?? 0) > 0) context.exitCode = EXIT_CODES.failure;
  if (report.interrupted) context.exitCode = EXIT_CODES.interrupted;
  context.output.result(report, () => humanLines(report));
};

export default mineCommand;
