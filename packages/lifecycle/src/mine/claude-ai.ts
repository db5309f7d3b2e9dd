import { readJsonArray } from "./json-array-stream.js";
import { isRecord, type JsonRecord, text } from "./jsonl-records.js";
import type { MinedConversation, MinedMessage, SkipSink } from "./mine-types.js";
import { sourceTime } from "./source-time.js";

function readMessage(message: JsonRecord, line: number): MinedMessage | undefined {
  const role =
    message.sender === "human" ? "user" : message.sender === "assistant" ? "assistant" : undefined;
  if (role === undefined) return undefined;
  const texts: string[] = [];
  const tools: string[] = [];
  if (Array.isArray(message.content) && message.content.length > 0) {
    for (const block of message.content.filter(isRecord)) {
      if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
      else if (block.type === "tool_use") tools.push(text(block.name) ?? "tool");
      // tool_result and thinking blocks are kept out.
    }
  } else if (typeof message.text === "string") texts.push(message.text);
  const attachments = [
    ...(Array.isArray(message.attachments) ? message.attachments : []),
    ...(Array.isArray(message.files) ? message.files : []),
  ]
    .filter(isRecord)
    .map((file) => text(file.file_name) ?? "file");
  const body = texts.join("\n");
  if (body.trim() === "" && tools.length === 0 && attachments.length === 0) return undefined;
  const time = sourceTime(message.created_at);
  return {
    role,
    text: body,
    ...(tools.length > 0 ? { tools } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
    line,
    ...(time ? { time } : {}),
  };
}

/**
 * A Claude.ai data export (`conversations.json`): an array of conversations
 * `{uuid, name, created_at, chat_messages: [{sender, text, content, created_at, attachments,
 * files}]}`. The text of an attachment (`extracted_content`) is not imported, only its name.
 */
export async function* readClaudeAi(
  path: string,
  skip: SkipSink,
): AsyncGenerator<MinedConversation> {
  let position = 0;
  for await (const element of readJsonArray(path)) {
    position++;
    if ("problem" in element) {
      skip({ line: element.line, code: element.problem, reason: element.reason });
      continue;
    }
    const conversation = element.value;
    if (!isRecord(conversation) || !Array.isArray(conversation.chat_messages)) {
      skip({
        line: element.line,
        code: "MALFORMED",
        reason: `conversation ${position} has no chat_messages array`,
      });
      continue;
    }
    const messages = conversation.chat_messages
      .filter(isRecord)
      .map((message) => readMessage(message, element.line))
      .filter((message): message is MinedMessage => message !== undefined);
    const id = text(conversation.uuid) ?? `conversation-${position}`;
    const time = sourceTime(conversation.created_at);
    const title = text(conversation.name);
    yield {
      id,
      sessionId: id,
      messages,
      ...(time ? { time } : {}),
      ...(title ? { title } : {}),
    };
  }
}
