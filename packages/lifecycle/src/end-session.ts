import { type ChatModel, type Memory, type MemoryEntry, MemoryError } from "@memory/api";
import { computeImportance, shouldAutosave } from "@memory/core";
import { autosaveKey } from "./autosave-turn.js";
import { readTranscript, type TranscriptLine, validateSessionId } from "./session-transcript.js";

export interface EndSessionOptions {
  sessionId: string;
  namespace?: string;
  /** Where transcripts live (`<data_dir>/sessions`); read unless `lines` is given. */
  transcriptDir?: string;
  /** The session's lines, when the caller keeps them itself. */
  lines?: readonly TranscriptLine[];
  /** Writes the summary; without one (or when it fails) the summary is extracted. */
  chatModel?: ChatModel | null;
  now?: () => Date;
  signal?: AbortSignal;
}

export interface EndSessionResult {
  /** The daily entry written, or null. */
  written: MemoryEntry | null;
  /**
   * `had-memory`: the session already wrote to memory (nothing to do); `empty`: no message to
   * summarize; `summarized`: a summary went to the daily log.
   */
  outcome: "had-memory" | "empty" | "summarized";
  /** How the summary was made: by the chat model, or extracted from the messages. */
  method?: "llm" | "extract";
  /** Why the chat model's summary was not used (its error), when it was tried. */
  llmError?: string;
}

export const SESSION_SUMMARY_PROMPT = [
  "Summarize this conversation session for the user's daily log: what was discussed, decided or",
  "left open, in at most three sentences of plain text. No preamble.",
].join(" ");
const TRANSCRIPT_CHARS = 24_000;
const SUMMARY_CHARS = 1_000;
const EXTRACT_CHARS = 300;

const cut = (text: string, chars: number) => {
  const points = Array.from(text.replace(/\s+/g, " ").trim());
  return points.length > chars ? `${points.slice(0, chars - 1).join("")}…` : points.join("");
};

function render(line: TranscriptLine): string | null {
  switch (line.type) {
    case "message":
      return shouldAutosave(line.content) ? `${line.role}: ${line.content}` : null;
    case "tool_call":
      return `tool call ${line.name} ${JSON.stringify(line.arguments ?? {})}`;
    case "tool_result":
      return `tool result${line.name ? ` ${line.name}` : ""}: ${cut(typeof line.content === "string" ? line.content : JSON.stringify(line.content), 500)}`;
    case "compaction":
      return `(earlier part, compacted) ${line.summary}`;
    default:
      return null;
  }
}

/** The non-LLM fallback: the first and the last user message, each cut to 300 characters. */
export function extractSummary(lines: readonly TranscriptLine[]): string | null {
  const users = lines.filter(
    (line): line is Extract<TranscriptLine, { type: "message" }> =>
      line.type === "message" && line.role === "user" && shouldAutosave(line.content),
  );
  const first = users[0];
  const last = users.at(-1);
  if (!first || !last) return null;
  const opening = `started with: ${cut(first.content, EXTRACT_CHARS)}`;
  return first === last
    ? `${users.length} user message; ${opening}`
    : `${users.length} user messages; ${opening}; ended with: ${cut(last.content, EXTRACT_CHARS)}`;
}

/**
 * Ends a session: when nothing was written to memory under its `sessionId` (in `namespace`),
 * writes a summary of its transcript to the daily log (a `daily` entry with the session id, so
 * a second call finds it and writes nothing). The summary comes from the chat model; without
 * one, or when it fails or answers nothing, it is extracted ({@link extractSummary}), so the
 * session never leaves no trace. A session without user messages writes nothing.
 */
export async function endSession(
  memory: Memory,
  options: EndSessionOptions,
): Promise<EndSessionResult> {
  const sessionId = validateSessionId(options.sessionId);
  const namespace = options.namespace;
  const scope = { sessionId, ...(namespace === undefined ? {} : { namespace }) };
  if ((await memory.count(scope)) > 0) return { written: null, outcome: "had-memory" };
  const lines =
    options.lines ??
    (options.transcriptDir === undefined
      ? []
      : (await readTranscript(options.transcriptDir, sessionId)).lines);
  const extracted = extractSummary(lines);
  if (extracted === null) return { written: null, outcome: "empty" };

  let summary: string | null = null;
  let llmError: string | undefined;
  if (options.chatModel) {
    const rendered = lines
      .map(render)
      .filter((line): line is string => line !== null)
      .join("\n");
    // The end of a long session says more about how it ended than its beginning.
    const text =
      rendered.length > TRANSCRIPT_CHARS ? `…${rendered.slice(-TRANSCRIPT_CHARS)}` : rendered;
    try {
      const reply = await options.chatModel.complete(
        [
          { role: "system", content: SESSION_SUMMARY_PROMPT },
          { role: "user", content: text },
        ],
        { temperature: 0, maxTokens: 300, ...(options.signal ? { signal: options.signal } : {}) },
      );
      summary = reply.trim() === "" ? null : cut(reply, SUMMARY_CHARS);
      if (summary === null) llmError = "the chat model answered an empty summary";
    } catch (error) {
      if (options.signal?.aborted) throw error;
      llmError =
        MemoryError.isInstance(error) || error instanceof Error ? error.message : String(error);
    }
  }
  const method = summary === null ? "extract" : "llm";
  const content = `Session ${sessionId} summary: ${summary ?? extracted}`;
  const now = (options.now ?? (() => new Date()))();
  const written = await memory.store({
    key: autosaveKey("daily", now),
    content,
    category: "daily",
    importance: computeImportance(content, "daily"),
    ...scope,
  });
  return {
    written,
    outcome: "summarized",
    method,
    ...(llmError === undefined ? {} : { llmError }),
  };
}
