import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { EXIT_CODES } from "../cli/exit-codes.js";
import { interruptible, untilAborted } from "../cli/interruption.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { JsonlEntries, type LineRejection } from "../io/jsonl-entries.js";
import { createProgress } from "../output/progress.js";

// A human report lists this many rejected lines; --json lists them all.
const SHOWN_REJECTIONS = 20;

/**
 * `memory import [file]`: JSONL from a file or stdin, streamed into `importEntries` (an upsert
 * on namespace + key that keeps ids and timestamps, so importing twice changes nothing). Bad
 * lines are reported with their line numbers; the import goes on, then exits 1. SIGINT or
 * SIGTERM stop it after the current batch (exit 130, with what was kept); a failure of the
 * store stops it with the store's error, which says how many entries were committed.
 */
const importCommand: CommandHandler = async (context, args) => {
  const [argument] = args as [string | undefined];
  const file = argument === undefined || argument === "-" ? undefined : path.resolve(argument);
  const size = file === undefined ? undefined : (await stat(file)).size;
  const input = file === undefined ? process.stdin : createReadStream(file);
  const reader = new JsonlEntries();

  const { memory } = await context.open("configured");
  const progress = await createProgress(context.output, "import");
  let report: Awaited<ReturnType<typeof memory.importEntries>>;
  try {
    // Ctrl-C (or SIGTERM) stops after the current batch: what was committed is reported.
    report = await interruptible(async (signal) => {
      const result = await memory.importEntries(untilAborted(reader.read(input), signal), {
        signal,
        onProgress: ({ done }) => {
          // Total entries are estimated from the bytes read so far, which gives a usable ETA.
          const bytes = "bytesRead" in input ? input.bytesRead : 0;
          const total =
            size && bytes > 0
              ? Math.max(done, Math.round((reader.lines * size) / bytes))
              : undefined;
          progress.update(done, total);
        },
      });
      if (!signal.aborted) return result;
      // Stop reading: a pipe on stdin would otherwise keep the process alive.
      if ("destroy" in input) input.destroy();
      return { ...result, interrupted: true };
    });
  } finally {
    progress.stop();
  }

  const rejected: LineRejection[] = [
    ...reader.rejections,
    ...report.rejected.map((rejection) => ({
      line: reader.lineOf(rejection.index),
      code: rejection.code,
      message: rejection.message,
      ...(rejection.key === undefined ? {} : { key: rejection.key }),
    })),
  ].sort((a, b) => a.line - b.line);

  // Edges that could not be written (export format 2) are rejections of their entry's line.
  const relations = report.relations && {
    imported: report.relations.imported,
    rejected: report.relations.rejected.map((rejection) => ({
      line: reader.lineOf(rejection.index),
      code: rejection.code,
      message: rejection.message,
      ...(rejection.key === undefined ? {} : { key: rejection.key }),
    })),
  };
  if (rejected.length > 0 || (relations?.rejected.length ?? 0) > 0)
    context.exitCode = EXIT_CODES.failure;
  if (report.interrupted) context.exitCode = EXIT_CODES.interrupted;
  const source = file ?? "stdin";
  const interrupted = report.interrupted === true;
  context.output.result(
    {
      imported: report.imported,
      rejected,
      lines: reader.lines,
      source,
      interrupted,
      ...(relations ? { relations } : {}),
    },
    () => {
      const lines = [
        interrupted
          ? `interrupted: imported ${report.imported} entries from ${source} before stopping (they are kept; run the same import again to finish it, nothing is duplicated)`
          : `imported ${report.imported} entries from ${source} (${reader.lines} lines)`,
      ];
      if (relations) {
        lines.push(`imported ${relations.imported} relations`);
        for (const rejection of relations.rejected.slice(0, SHOWN_REJECTIONS))
          lines.push(`  line ${rejection.line}: relation not imported: ${rejection.message}`);
        if (relations.rejected.length > SHOWN_REJECTIONS)
          lines.push(`  ... ${relations.rejected.length - SHOWN_REJECTIONS} more (see --json)`);
      }
      if (rejected.length === 0) return lines;
      lines.push(
        `rejected ${rejected.length} ${rejected.length === 1 ? "line" : "lines"} (fix them and import again; good lines are not duplicated):`,
      );
      for (const rejection of rejected.slice(0, SHOWN_REJECTIONS)) {
        lines.push(`  line ${rejection.line}: ${rejection.code}: ${rejection.message}`);
      }
      if (rejected.length > SHOWN_REJECTIONS)
        lines.push(`  ... ${rejected.length - SHOWN_REJECTIONS} more (see --json)`);
      return lines;
    },
  );
};

export default importCommand;
