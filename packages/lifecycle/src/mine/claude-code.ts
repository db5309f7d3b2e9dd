import { isRecord, jsonlRecords, text } from "./jsonl-records.js";
import type { MinedConversation, MinedMessage, SkipSink } from "./mine-types.js";
import { sourceTime } from "./source-time.js";

/** Parts of a Claude Code message `content` array, reduced to text, tool names and images. */
function readContent(content: unknown): Pick<MinedMessage, "text" | "tools" | "attachments"> & {
  onlyToolResults: boolean;
} {
  if (typeof content === "string") return { text: content, onlyToolResults: false };
  const texts: string[] = [];
  const tools: string[] = [];
  const attachments: string[] = [];
  let results = 0;
  const blocks = Array.isArray(content) ? content.filter(isRecord) : [];
  for (const block of blocks) {
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block.type === "tool_use") tools.push(text(block.name) ?? "tool");
    else if (block.type === "tool_result") results++;
    else if (block.type === "image") attachments.push("image");
    else if (block.type === "document") attachments.push(text(block.title) ?? "document");
    // thinking / redacted_thinking are the model's scratchpad, kept out.
  }
  return {
    text: texts.join("\n"),
    ...(tools.length > 0 ? { tools } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
    onlyToolResults: results > 0 && results === blocks.length,
  };
}

/**
 * A Claude Code session (`~/.claude/projects/<project>/<session>.jsonl`): `user` and
 * `assistant` lines with `message.content`, `sessionId` and `timestamp`. A user line that only
 * carries tool results is the tool's answer, not the user speaking: it neither opens an exchange
 * nor is imported. Meta lines (`isMeta`), subagent lines (`isSidechain`) and summaries are kept out.
 */
export async function* readClaudeCode(
  path: string,
  skip: SkipSink,
): AsyncGenerator<MinedConversation> {
  const messages: MinedMessage[] = [];
  let sessionId: string | undefined;
  for await (const { line, record } of jsonlRecords(path, skip)) {
    sessionId ??= text(record.sessionId);
    if (record.type !== "user" && record.type !== "assistant") continue;
    if (record.isMeta === true || record.isSidechain === true) continue;
    if (!isRecord(record.message)) {
      skip({ line, code: "MALFORMED", reason: `a ${record.type} line without a message object` });
      continue;
    }
    const content = readContent(record.message.content);
    if (content.onlyToolResults) continue;
    const time = sourceTime(record.timestamp);
    const { onlyToolResults: _, ...parts } = content;
    messages.push({ role: record.type, ...parts, line, ...(time ? { time } : {}) });
  }
  if (messages.length === 0) return;
  const id = sessionId ?? "session";
  yield { id, sessionId: id, messages };
}
