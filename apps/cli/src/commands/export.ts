import path from "node:path";
import type { ExportFilter, Memory } from "@memory/api";
import type { CommandHandler } from "../cli/lazy-action.js";
import { snapshotHeader, snapshotLine, snapshotNamespaceHeading } from "../io/snapshot-format.js";
import { fileSink, stdoutSink, type TextSink } from "../io/text-sink.js";
import { VERSION } from "../version.js";
import { entryFilter, type FilterOptions } from "./shared/entry-filter.js";

interface ExportOptions extends FilterOptions {
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
  // Core, live entries only: the snapshot is the long-term memory a lost store is rebuilt from.
  const coreFilter: ExportFilter = { ...filter, categories: ["core"], includeSuperseded: false };
  delete coreFilter.withEmbeddings;
  await sink.write(snapshotHeader(VERSION, new Date().toISOString()));
  let count = 0;
  let namespace: string | undefined;
  // Export streams oldest first across namespaces, so one namespace's entries are not
  // contiguous; a pass per namespace keeps each under one heading without buffering entries.
  const namespaces =
    filter.namespace !== undefined ? [filter.namespace] : await listNamespaces(memory, coreFilter);
  for (const current of namespaces) {
    for await (const entry of memory.export({ ...coreFilter, namespace: current })) {
      if (namespace !== current) {
        await sink.write(snapshotNamespaceHeading(current));
        namespace = current;
      }
      await sink.write(snapshotLine(entry));
      count += 1;
    }
  }
  return count;
}

async function listNamespaces(memory: Memory, filter: ExportFilter): Promise<string[]> {
  const seen = new Set<string>();
  for await (const entry of memory.export(filter)) seen.add(entry.namespace);
  return [...seen].sort();
}

/** `memory export`: JSONL (one entry per line, oldest first) or a Markdown snapshot. */
const exportCommand: CommandHandler = async (context, _args, options) => {
  const {
    output: file,
    format,
    withEmbeddings,
    excludeSuperseded,
    ...filters
  } = options as unknown as ExportOptions;
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
