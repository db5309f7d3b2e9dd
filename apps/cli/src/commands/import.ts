import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { JsonlEntries, type LineRejection } from "../io/jsonl-entries.js";
import { createProgress } from "../output/progress.js";

// A human report lists this many rejected lines; --json lists them all.
const SHOWN_REJECTIONS = 20;

/**
 * `memory import [file]`: JSONL from a file or stdin, streamed into `importEntries` (an upsert
 * on namespace + key that keeps ids and timestamps, so importing twice changes nothing). Bad
 * lines are reported with their line numbers; the import goes on, then exits 1.
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
    report = await memory.importEntries(reader.read(input), {
      onProgress: ({ done }) => {
        // Total entries are estimated from the bytes read so far, which gives a usable ETA.
        const bytes = "bytesRead" in input ? input.bytesRead : 0;
        const total =
          size && bytes > 0 ? Math.max(done, Math.round((reader.lines * size) / bytes)) : undefined;
        progress.update(done, total);
      },
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

  if (rejected.length > 0) context.exitCode = EXIT_CODES.failure;
  const source = file ?? "stdin";
  context.output.result(
    { imported: report.imported, rejected, lines: reader.lines, source },
    () => {
      const lines = [`imported ${report.imported} entries from ${source} (${reader.lines} lines)`];
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
