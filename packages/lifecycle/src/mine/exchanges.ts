import type { MinedConversation, MinedMessage } from "./mine-types.js";

/** One message's text is cut here (a pasted log or file): an entry is a memory, not an archive. */
export const MAX_MESSAGE_CHARS = 16_000;

/** A user message and the replies after it, ready to store. */
export interface MinedExchange {
  /** 0-based position in its conversation: part of the entry key. */
  index: number;
  /** 1-based line of its first message in the file. */
  line: number;
  content: string;
  /** Earliest and latest time of its messages (UTC ISO); absent when the source has none. */
  createdAt?: string;
  updatedAt?: string;
}

function clip(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  return `${text.slice(0, MAX_MESSAGE_CHARS)} [... ${text.length - MAX_MESSAGE_CHARS} more characters not imported]`;
}

function label(message: MinedMessage): string {
  return message.speaker ?? (message.role === "user" ? "User" : "Assistant");
}

/** A whole exchange as entry text: one line per message, then tools and attachments summarised. */
function render(messages: MinedMessage[]): string {
  const lines: string[] = [];
  const tools: string[] = [];
  const attachments: string[] = [];
  for (const message of messages) {
    const text = message.text.trim();
    if (text !== "") lines.push(`${label(message)}: ${clip(text)}`);
    tools.push(...(message.tools ?? []));
    attachments.push(...(message.attachments ?? []));
  }
  if (tools.length > 0) lines.push(`[tools used: ${summarise(tools)}]`);
  if (attachments.length > 0) lines.push(`[attachments: ${summarise(attachments)}]`);
  return lines.join("\n");
}

/** `Bash x3, Edit`: names in first-use order with their counts. */
function summarise(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => (count > 1 ? `${name} x${count}` : name)).join(", ");
}

/**
 * Splits a conversation into exchanges: each user message opens one and the replies after it
 * (assistant messages, tool calls) belong to it; replies before the first user message form an
 * exchange of their own. An exchange with no text, tool or attachment at all is dropped.
 */
export function toExchanges(conversation: MinedConversation): MinedExchange[] {
  const groups: MinedMessage[][] = [];
  for (const message of conversation.messages) {
    if (message.role === "user" || groups.length === 0) groups.push([message]);
    else groups.at(-1)!.push(message);
  }
  const exchanges: MinedExchange[] = [];
  for (const messages of groups) {
    const content = render(messages);
    if (content === "") continue;
    const times = messages
      .map((message) => message.time)
      .filter((time): time is string => time !== undefined)
      .sort();
    const first = times[0] ?? conversation.time;
    const last = times.at(-1) ?? conversation.time;
    exchanges.push({
      index: exchanges.length,
      line: messages[0]!.line,
      content,
      ...(first === undefined ? {} : { createdAt: first }),
      ...(last === undefined ? {} : { updatedAt: last }),
    });
  }
  return exchanges;
}
