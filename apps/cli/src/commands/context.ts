import { memoryContextOptionsFromConfig } from "@memory/lifecycle";
import { UsageError } from "../cli/cli-errors.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { loadServerContext } from "../store/load-server.js";

export interface ContextCommandOptions {
  namespace?: string;
  session?: string;
  limit?: number;
  minScore?: number;
  maxChars?: number;
}

/** The request's field names as this command's options, for messages about them. */
const OPTION_OF: Record<string, string> = {
  message: "the message",
  namespace: "--namespace",
  sessionId: "--session",
  limit: "--limit",
  minScore: "--min-score",
  maxChars: "--max-chars",
};

/**
 * `memory context "<message>"`: the memory context an agent gets before a turn, built by the
 * server's own operation (`@memory/server/context`, what `POST /v1/context` and the MCP tool
 * `memory_context` run) with memory.toml's `auto_recall*` as defaults. The request is checked
 * by the HTTP body's schema, so the same values are refused everywhere; `--json` prints the
 * HTTP response body, plain output the block alone (ready to paste into a prompt).
 */
const context: CommandHandler<ContextCommandOptions> = async (command, args, options) => {
  const [words = []] = args as [string[] | undefined];
  const server = await loadServerContext("memory context");
  const parsed = server.ContextRequestSchema.safeParse({
    message: words.join(" "),
    namespace: options.namespace,
    sessionId: options.session,
    limit: options.limit,
    minScore: options.minScore,
    maxChars: options.maxChars,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? "message");
    throw new UsageError(`${OPTION_OF[field] ?? field}: ${issue.message}`);
  }
  const { config } = command.config();
  const { memory } = await command.open("configured");
  const built = await server.buildContext(parsed.data, {
    memory,
    access: server.FULL_ACCESS,
    contextDefaults: memoryContextOptionsFromConfig(config.memory),
  });
  const degraded = built.entries.find((entry) => entry.explain?.degraded)?.explain?.degraded;
  if (degraded) command.output.note(`note: recall was keyword-only: ${degraded}`);
  if (built.context === "") command.output.note("no relevant memories for this message");
  else if (built.truncated) command.output.note("note: the block was cut to fit (--max-chars)");
  command.output.result(built, () => (built.context === "" ? [] : built.context));
};

export default context;
