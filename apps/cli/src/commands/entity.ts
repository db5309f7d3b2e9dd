import { entityReport } from "@memory/core";
import type { CommandHandler } from "../cli/lazy-action.js";

export interface EntityCommandOptions {
  namespace?: string;
  limit?: number;
  includeSuperseded?: boolean;
}

const PREVIEW = 100;

function preview(content: string): string {
  const line = content.replace(/\s+/g, " ").trim();
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}…` : line;
}

/** `memory entity <name>`: the entries that name it, newest first (NOT_FOUND exits 3). */
const entity: CommandHandler<EntityCommandOptions> = async (context, args, options) => {
  const [name] = args as [string];
  const { memory } = await context.open("none");
  const report = await entityReport(memory, name, {
    namespace: options.namespace ?? "default",
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.includeSuperseded ? { includeSuperseded: true } : {}),
  });
  const { style } = context.output;
  context.output.result(report, () => [
    `${style.bold(report.name)} (${report.key}): named by ${report.mentions} ${report.mentions === 1 ? "entry" : "entries"} in namespace ${report.namespace}, newest first`,
    ...report.entries.map(
      (entry) =>
        `  ${style.dim(entry.updatedAt.slice(0, 10))} ${style.bold(entry.key)}  ${preview(entry.content)}`,
    ),
  ]);
};

export default entity;
