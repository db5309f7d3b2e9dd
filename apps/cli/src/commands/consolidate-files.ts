import { UnsupportedOperationError } from "@memory/api";
import {
  consolidateMemoryFile,
  type FileConsolidationReport,
  MarkdownMemory,
} from "@memory/markdown";
import { UsageError } from "../cli/cli-errors.js";
import type { CommandContext } from "../cli/command-context.js";
import { requireChatModel } from "../store/open-chat-model.js";

export interface ConsolidateFilesOptions {
  namespace?: string;
  days?: number;
  force?: boolean;
  dryRun?: boolean;
}

const list = (keys: readonly string[]) => (keys.length === 0 ? "none" : keys.join(", "));

function humanReport(report: FileConsolidationReport): string[] {
  if (report.skipped === "no-daily-files")
    return [
      `nothing to consolidate: no daily file in the last ${report.days} day(s) for ${report.path}`,
    ];
  const lines = [
    `${report.dryRun ? "checked" : "consolidated"} ${report.path} with ${report.model} from ${report.sources.join(", ")}`,
    `entries ${report.entriesBefore} -> ${report.entriesAfter}: added ${list(report.addedKeys)}; changed ${list(report.changedKeys)}; removed ${list(report.removedKeys)}`,
  ];
  if (report.diff === "") lines.push("the model changed nothing.");
  else lines.push("", ...report.diff.replace(/\n$/, "").split("\n"), "");
  if (report.backup !== null) lines.push(`previous version kept in ${report.backup}`);
  if (report.dryRun) lines.push("dry run: nothing was changed.");
  return lines;
}

/**
 * `memory consolidate --files [--days 7] [--force] [--dry-run]` (markdown backend): the chat
 * model rewrites MEMORY.md from it and the recent daily files; the guards of
 * `consolidateMemoryFile` (@memory/markdown) decide whether the answer is written.
 */
export async function consolidateFiles(
  context: CommandContext,
  words: readonly string[],
  options: ConsolidateFilesOptions,
): Promise<void> {
  if (words.length > 0)
    throw new UsageError(
      "memory consolidate --files takes no message: it consolidates the recent daily files into MEMORY.md",
    );
  const { config } = context.config();
  const backend = config.memory.backend;
  if (backend !== "markdown")
    throw new UnsupportedOperationError(
      `memory consolidate --files rewrites MEMORY.md, so it needs the markdown backend (this store's backend is "${backend}"): set backend = "markdown" in [memory], or consolidate single turns with memory consolidate "<message>".`,
      { details: { backend } },
    );
  const chatModel = requireChatModel(config.memory, "memory consolidate --files");
  const { memory } = await context.open("configured");
  // Whole-file rewrites are the Markdown memory's own (not part of the file-backed extension).
  if (!(memory instanceof MarkdownMemory))
    throw new UnsupportedOperationError(
      `memory consolidate --files needs the markdown backend; the store opened is "${memory.name}".`,
    );
  const report = await consolidateMemoryFile(memory, {
    chatModel,
    force: options.force === true,
    dryRun: options.dryRun === true,
    ...(options.days === undefined ? {} : { days: options.days }),
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
  });
  context.output.result(report, () => humanReport(report));
}
