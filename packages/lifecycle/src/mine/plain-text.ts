import path from "node:path";
import type { MinedConversation, MinedMessage, MinedRole, SkipSink } from "./mine-types.js";
import { readLines } from "./read-lines.js";
import { sourceTime } from "./source-time.js";

const USER = new Set(["user", "human", "me", "you", "q", "question"]);
const ASSISTANT = new Set([
  "assistant",
  "ai",
  "bot",
  "a",
  "answer",
  "chatgpt",
  "gpt",
  "claude",
  "model",
]);

/**
 * `User: ...`, `**Human:** ...`, `[2024-05-01T10:00:00+02:00] Assistant: ...`: an optional
 * bracketed time, an optional bold marker, a known speaker name, a colon.
 */
const SPEAKER =
  /^\s*(?:\[([^\]]{6,40})\]\s*)?(?:[*_]{1,2})?([A-Za-z]{1,10})(?:[*_]{1,2})?\s*:(?:[*_]{1,2})?\s?(.*)$/;

function speakerRole(name: string): MinedRole | "system" | undefined {
  const lower = name.toLowerCase();
  if (USER.has(lower)) return "user";
  if (ASSISTANT.has(lower)) return "assistant";
  return lower === "system" ? "system" : undefined;
}

/**
 * A plain-text transcript: lines that start with a speaker (`User:`, `Human:`, `Me:`, `You:`,
 * `Q:` for the user; `Assistant:`, `AI:`, `Bot:`, `A:`, `ChatGPT:`, `Claude:` for the reply),
 * continued by the lines below until the next speaker. Text before the first speaker (a title)
 * and `System:` messages are kept out. A bracketed time before the speaker is the message time.
 * The whole file is one conversation; a file with no speaker line is reported, not imported.
 */
export async function* readPlainText(
  file: string,
  skip: SkipSink,
  sessionId: string,
): AsyncGenerator<MinedConversation> {
  const messages: (MinedMessage | { role: "system" })[] = [];
  let current: MinedMessage | { role: "system" } | undefined;
  for await (const item of readLines(file)) {
    if ("problem" in item) {
      skip({
        line: item.line,
        code: item.problem,
        reason: item.problem === "TOO_LARGE" ? "line too large" : "invalid UTF-8",
      });
      continue;
    }
    const match = SPEAKER.exec(item.text);
    const role = match ? speakerRole(match[2]!) : undefined;
    if (match && role !== undefined) {
      if (role === "system") current = { role };
      else {
        const time = match[1] === undefined ? undefined : sourceTime(match[1]);
        current = { role, text: match[3] ?? "", line: item.line, ...(time ? { time } : {}) };
      }
      messages.push(current);
    } else if (current !== undefined && "text" in current) current.text += `\n${item.text}`;
  }
  const kept = messages.filter((message): message is MinedMessage => message.role !== "system");
  if (kept.length === 0) {
    skip({
      code: "UNKNOWN_FORMAT",
      reason: "no speaker lines (User:/Assistant:, Human:/AI:, Q:/A: ...) found",
    });
    return;
  }
  yield { id: "transcript", sessionId, title: path.basename(file), messages: kept };
}
