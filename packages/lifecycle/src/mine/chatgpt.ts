import { readJsonArray } from "./json-array-stream.js";
import { isRecord, type JsonRecord, text } from "./jsonl-records.js";
import type { MinedConversation, MinedMessage, SkipSink } from "./mine-types.js";
import { sourceTime } from "./source-time.js";

// Content types that are tool output, browsing results or the model's reasoning: kept out.
const KEPT_OUT = new Set([
  "execution_output",
  "tether_browsing_display",
  "tether_quote",
  "system_error",
  "thoughts",
  "reasoning_recap",
  "user_editable_context",
  "model_editable_context",
]);

/** The visible text of one ChatGPT message, its tool call and its attachments. */
function readMessage(message: JsonRecord, line: number): MinedMessage | undefined {
  const author = isRecord(message.author) ? message.author : {};
  const metadata = isRecord(message.metadata) ? message.metadata : {};
  if (metadata.is_visually_hidden_from_conversation === true) return undefined;
  const content = isRecord(message.content) ? message.content : {};
  const type = text(content.content_type) ?? "text";
  const time = sourceTime(message.create_time);
  const at = { line, ...(time ? { time } : {}) };
  const attachments = (Array.isArray(metadata.attachments) ? metadata.attachments : [])
    .filter(isRecord)
    .map((file) => text(file.name) ?? "file");
  if (author.role === "tool" || KEPT_OUT.has(type)) return undefined;
  if (author.role !== "user" && author.role !== "assistant") return undefined;
  // An assistant message addressed to a tool (`recipient` is not "all") is a tool call.
  const recipient = text(message.recipient) ?? "all";
  if (author.role === "assistant" && recipient !== "all")
    return { role: "assistant", text: "", tools: [recipient], ...at };
  const parts = Array.isArray(content.parts) ? content.parts : [];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === "string") texts.push(part);
    else if (isRecord(part) && typeof part.asset_pointer === "string") attachments.push("image");
  }
  if (type === "code" && typeof content.text === "string") texts.push(content.text);
  const body = texts.join("\n");
  if (body.trim() === "" && attachments.length === 0) return undefined;
  return {
    role: author.role,
    text: body,
    ...(attachments.length > 0 ? { attachments } : {}),
    ...at,
  };
}

/**
 * The branch a ChatGPT conversation shows: from `current_node` up the `parent` links to the
 * root, reversed. Messages on other branches (an edited prompt, a regenerated answer) are not
 * on it and are dropped. A parent cycle stops the walk instead of looping.
 */
function currentBranch(mapping: JsonRecord, current: string): JsonRecord[] {
  const branch: JsonRecord[] = [];
  const seen = new Set<string>();
  let id: string | undefined = current;
  while (id !== undefined && !seen.has(id)) {
    seen.add(id);
    const node = mapping[id];
    if (!isRecord(node)) break;
    if (isRecord(node.message)) branch.push(node.message);
    id = text(node.parent);
  }
  return branch.reverse();
}

/**
 * A ChatGPT data export (`conversations.json`): an array of conversations, each a `mapping`
 * tree of nodes `{message, parent, children}` and the `current_node` the user last saw.
 */
export async function* readChatGpt(
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
    if (
      !isRecord(conversation) ||
      !isRecord(conversation.mapping) ||
      typeof conversation.current_node !== "string"
    ) {
      skip({
        line: element.line,
        code: "MALFORMED",
        reason: `conversation ${position} has no mapping or current_node`,
      });
      continue;
    }
    const messages = currentBranch(conversation.mapping, conversation.current_node)
      .map((message) => readMessage(message, element.line))
      .filter((message): message is MinedMessage => message !== undefined);
    const id =
      text(conversation.conversation_id) ?? text(conversation.id) ?? `conversation-${position}`;
    const time = sourceTime(conversation.create_time);
    const title = text(conversation.title);
    yield {
      id,
      sessionId: id,
      messages,
      ...(time ? { time } : {}),
      ...(title ? { title } : {}),
    };
  }
}
