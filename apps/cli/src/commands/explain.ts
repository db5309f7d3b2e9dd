import type { ExplainRecallOptions, SearchMode } from "@memory/api";
import { memoryContextOptionsFromConfig } from "@memory/lifecycle";
import { UsageError } from "../cli/cli-errors.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { loadServerContext } from "../store/load-server.js";
import { contextTraceLines, recallTraceLines } from "./shared/describe-trace.js";
import { entryFilter, type FilterOptions } from "./shared/entry-filter.js";

export interface ExplainCommandOptions extends FilterOptions {
  key?: string;
  context?: boolean;
  limit?: number;
  mode?: SearchMode;
  minScore?: number;
  maxChars?: number;
}

/**
 * `memory explain "<query>"`: the recall traced (`Memory.explainRecall`), every candidate kept or
 * dropped with its reason and factors; `--key` says why one key is or is not in the results;
 * `--context` traces the memory context instead (the operation `memory context` runs, with
 * `explain: "full"`). `--json` prints the trace as the HTTP API returns it.
 */
const explain: CommandHandler<ExplainCommandOptions> = async (command, args, options) => {
  const { key, context, limit, mode, minScore, maxChars, ...filters } = options;
  const [words = []] = args as [string[] | undefined];
  const query = words.join(" ");
  const width = Math.max((process.stdout.columns ?? 100) - 4, 40);
  const style = command.output.style;
  if (context) {
    const ignored = [
      filters.category && "--category",
      filters.since && "--since",
      filters.until && "--until",
      filters.includeSuperseded && "--include-superseded",
      mode && "--mode",
    ].filter(Boolean);
    if (ignored.length > 0)
      throw new UsageError(
        `${ignored.join(", ")} cannot be used with --context: the memory context chooses its own recall (drop them, or explain the recall without --context)`,
      );
    const server = await loadServerContext("memory explain --context");
    const parsed = server.ContextRequestSchema.safeParse({
      message: query,
      namespace: filters.namespace,
      sessionId: filters.session,
      limit,
      minScore,
      maxChars,
      explain: "full",
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UsageError(`${String(issue.path[0] ?? "message")}: ${issue.message}`);
    }
    const { config } = command.config();
    const { memory } = await command.open("configured");
    const built = await server.buildContext(parsed.data, {
      memory,
      access: server.FULL_ACCESS,
      contextDefaults: memoryContextOptionsFromConfig(config.memory),
    });
    const trace = built.trace!;
    command.output.result(built, () => contextTraceLines(trace, style, width, key));
    return;
  }
  if (maxChars !== undefined) throw new UsageError("--max-chars applies to --context only");
  const recallOptions: ExplainRecallOptions = entryFilter(filters);
  if (limit !== undefined) recallOptions.limit = limit;
  if (mode !== undefined) recallOptions.mode = mode;
  if (minScore !== undefined) recallOptions.minScore = minScore;
  if (key !== undefined) recallOptions.key = key;
  const { memory } = await command.open("configured");
  const trace = await memory.explainRecall(query, recallOptions);
  command.output.result(trace, () => recallTraceLines(trace, style, width));
};

export default explain;
