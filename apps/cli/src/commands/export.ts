import path from "node:path";
import type { ExportFilter, Memory } from "@memory/api";
import { writeSnapshotText } from "@memory/core";
import type { CommandHandler } from "../cli/lazy-action.js";
import { fileSink, stdoutSink, type TextSink } from "../io/text-sink.js";
import { VERSION } from "../version.js";
import { entryFilter, type FilterOptions } from "./shared/entry-filter.js";

export interface ExportOptions extends FilterOptions {
  output?: string;
  format: "jsonl" | "snapshot";
  withEmbeddings?: boolean;
  excludeSuperseded?: boolean;
}

async function writeJsonl(memory: Memory, filter: ExportFilter, sink: TextSink): Promise<number> {
  let count = 0;
  for await (const entry of memory.export(filter)) {
    await sink.write(`${JSON.stringify(entry)}\n`);
    count += 1;
  }
  return count;
}

async function writeSnapshot(
  memory: Memory,
  filter: ExportFilter,
  sink: TextSink,
): Promise<number> {
  // Core entries only, in the shared format of @memory/api (the one `memory hydrate` reads).
  const { namespace, categories: _categories, withEmbeddings: _embeddings, ...rest } = filter;
  const summary = await writeSnapshotText(memory, (chunk) => sink.write(chunk), {
    ...(namespace !== undefined ? { namespaces: [namespace] } : {}),
    filter: rest,
    generator: `memory ${VERSION}`,
  });
  return summary.entries;
}

/**
 * `memory export`: JSONL (one entry per line, oldest first) or a Markdown snapshot of the core
 * entries (`formatSnapshot` of @memory/api; `memory hydrate --path` reads it back).
 */
const exportCommand: CommandHandler<ExportOptions> = async (context, _args, options) => {
  const { output: file, format, withEmbeddings, excludeSuperseded, ...filters } = options;
  const filter: ExportFilter = entryFilter(filters);
  // Export includes superseded entries by default: a backup must keep the audit trail.
  filter.includeSuperseded = excludeSuperseded !== true;
  if (withEmbeddings) filter.withEmbeddings = true;
  const { memory } = await context.open("none");
  const target = file === undefined ? undefined : path.resolve(file);
  const sink = target === undefined ? stdoutSink(context.output) : fileSink(target);
  let count: number;
  try {
    count =
      format === "snapshot"
        ? await writeSnapshot(memory, filter, sink)
        : await writeJsonl(memory, filter, sink);
    await sink.commit();
  } catch (error) {
    await sink.abort();
    throw error;
  }
  if (target !== undefined) {
    context.output.result(
      { exported: count, file: target, format },
      () => `exported ${count} ${count === 1 ? "entry" : "entries"} to ${target}`,
    );
  } else {
    context.output.note(`exported ${count} ${count === 1 ? "entry" : "entries"}`);
  }
};

export default exportCommand;
