import { open, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { InvalidInputError } from "@memory/api";

/** The last exchange of a session: what the user asked and the assistant's text answer. */
export interface TranscriptTurn {
  userMessage: string;
  assistantReply: string;
}

/** Only the end of a long transcript is read: the last turn is there. */
const TAIL_BYTES = 4 * 1024 * 1024;

interface ContentBlock {
  type?: unknown;
  text?: unknown;
}

interface TranscriptLine {
  type?: unknown;
  isMeta?: unknown;
  message?: { role?: unknown; content?: unknown };
}

/**
 * Reads the tail of a Claude Code transcript (JSONL, one event per line) and returns its last
 * turn. The path comes from the hook payload: it must be absolute and name a regular file once
 * symlinks are resolved.
 */
export async function readLastTurn(transcriptPath: string): Promise<TranscriptTurn | undefined> {
  if (!path.isAbsolute(transcriptPath)) {
    throw new InvalidInputError(`transcript_path must be absolute, got ${transcriptPath}.`);
  }
  const file = await realpath(transcriptPath);
  const info = await stat(file);
  if (!info.isFile()) throw new InvalidInputError(`transcript_path ${file} is not a file.`);
  const start = Math.max(0, info.size - TAIL_BYTES);
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(info.size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString("utf8").split("\n");
    // A tail that starts mid-line: its first line is a fragment.
    return lastTurn(start > 0 ? lines.slice(1) : lines);
  } finally {
    await handle.close();
  }
}

/**
 * The last user prompt (a `user` line whose content is text, not tool results) and the last
 * assistant text after it: the answer, not the narration between tool calls ("Let me look at
 * ..."), since autosave keeps only the start of a reply. Lines that are not JSON (a line being
 * written) are skipped.
 */
export function lastTurn(lines: readonly string[]): TranscriptTurn | undefined {
  let userMessage: string | undefined;
  let reply = "";
  for (const line of lines) {
    const event = parseLine(line);
    if (event === undefined || event.isMeta === true) continue;
    const role = event.message?.role ?? event.type;
    const text = textOf(event.message?.content);
    if (role === "user" && text !== undefined) {
      userMessage = text;
      reply = "";
    } else if (role === "assistant" && text !== undefined && userMessage !== undefined) {
      reply = text;
    }
  }
  if (userMessage === undefined || userMessage.trim() === "") return undefined;
  return { userMessage, assistantReply: reply };
}

function parseLine(line: string): TranscriptLine | undefined {
  if (line.trim() === "") return undefined;
  try {
    const parsed = JSON.parse(line) as unknown;
    return parsed !== null && typeof parsed === "object" ? (parsed as TranscriptLine) : undefined;
  } catch {
    return undefined;
  }
}

/** A message's text: the string itself, or its text blocks joined; undefined when it has none. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = (content as ContentBlock[])
    .filter((block) => block?.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string);
  return texts.length === 0 ? undefined : texts.join("\n");
}
