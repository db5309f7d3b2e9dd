import { appendTranscript, remember, type TripleReport, transcriptDir } from "@memory/lifecycle";
import { UsageError } from "../cli/cli-errors.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { readStdin } from "../io/read-stdin.js";
import { requireChatModel } from "../store/open-chat-model.js";

/** What the knowledge graph got from the turn, when it got anything (docs/knowledge-graph.md). */
function tripleLines(report: TripleReport): string[] {
  const { stored, closed, confirmed, dropped } = report;
  const left = dropped.predicate + dropped.name;
  if (stored.length + closed.length + confirmed + left === 0) return [];
  return [
    `knowledge graph: ${stored.length} triple(s) stored, ${closed.length} closed, ${confirmed} confirmed, ${left} dropped (predicate outside the list or no name)`,
    ...stored.map((triple) => `  ${triple.subjectName} ${triple.predicate} ${triple.objectName}`),
  ];
}

export interface RememberOptions {
  namespace?: string;
  session?: string;
  reply?: string;
}

async function readTurn(words: readonly string[], stdinIsTerminal: boolean): Promise<string> {
  if (words.length > 0 && !(words.length === 1 && words[0] === "-")) return words.join(" ");
  if (stdinIsTerminal) {
    throw new UsageError('no turn: pass it as an argument (memory remember "text") or on stdin');
  }
  return (await readStdin()).replace(/\r?\n$/, "");
}

/**
 * `memory remember "<turn>"`: stores the turn as a conversation entry, then asks the configured
 * chat model (chat_provider) for the durable facts in it and stores them as core entries. When
 * the model fails or keeps answering garbage the command fails, naming the stored turn. With
 * transcripts_enabled and --session, the turn is also appended to the session's transcript.
 */
const rememberCommand: CommandHandler<RememberOptions> = async (context, args, options) => {
  const { namespace, session, reply } = options;
  const [words = []] = args as [string[] | undefined];
  const userMessage = await readTurn(words, context.output.terminal.interactiveInput);
  const { config } = context.config();
  const chatModel = requireChatModel(config.memory, "memory remember");
  const { memory } = await context.open("configured");
  if (config.memory.transcripts_enabled && session !== undefined) {
    await appendTranscript(transcriptDir(config), session, [
      { type: "message", role: "user", content: userMessage },
      ...(reply === undefined
        ? []
        : [{ type: "message" as const, role: "assistant" as const, content: reply }]),
    ]);
  }
  const result = await remember(
    memory,
    {
      userMessage,
      ...(reply === undefined ? {} : { assistantReply: reply }),
      ...(session === undefined ? {} : { sessionId: session }),
      ...(namespace === undefined ? {} : { namespace }),
    },
    { chatModel, retries: config.memory.remember_retries },
  );
  context.output.result(result, () => {
    if (!result.turn)
      return "not remembered: the autosave filter skips this turn (empty, cron, heartbeat or memory context)";
    return [
      `stored the turn as ${result.turn.key}`,
      result.facts.length === 0
        ? "no durable fact found"
        : `${result.facts.length} fact(s) stored as core entries:`,
      ...result.facts.map((fact) => {
        // Conflict detection on store (conflict_mode), when on, says which older facts it replaced.
        const replaced = fact.conflict?.superseded ?? [];
        const note = replaced.length > 0 ? ` (supersedes ${replaced.join(", ")})` : "";
        return `  ${fact.key} (${fact.kind}): ${fact.content}${note}`;
      }),
      ...tripleLines(result.triples),
    ];
  });
};

export default rememberCommand;
