import { isRecord, jsonlRecords, text } from "./jsonl-records.js";
import type { MinedConversation, MinedMessage, SkipSink } from "./mine-types.js";
import { sourceTime } from "./source-time.js";

// Codex puts its own context into user-role messages; they are not the user speaking.
const INJECTED = ["<environment_context>", "<user_instructions>", "# AGENTS.md instructions"];
const TOOL_CALLS = new Set([
  "function_call",
  "local_shell_call",
  "custom_tool_call",
  "web_search_call",
]);

/**
 * A Codex CLI session (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): lines
 * `{timestamp, type, payload}` with `session_meta` (the session id) and `response_item`
 * (messages with `input_text`/`output_text` parts, tool calls). The older layout without the
 * envelope (a first line `{id, timestamp}`, then bare items) is read too. `event_msg` lines repeat
 * the messages and are skipped; reasoning and tool outputs are kept out.
 */
export async function* readCodex(path: string, skip: SkipSink): AsyncGenerator<MinedConversation> {
  const messages: MinedMessage[] = [];
  let sessionId: string | undefined;
  let sessionTime: string | undefined;
  let first = true;
  for await (const { line, record } of jsonlRecords(path, skip)) {
    const enveloped = isRecord(record.payload);
    const item = enveloped ? (record.payload as Record<string, unknown>) : record;
    if (record.type === "session_meta" || (first && !enveloped && record.type === undefined)) {
      sessionId ??= text(item.id);
      sessionTime ??= sourceTime(item.timestamp ?? record.timestamp);
      first = false;
      continue;
    }
    first = false;
    if (enveloped && record.type !== "response_item") continue;
    const time = sourceTime(record.timestamp);
    const at = { line, ...(time ? { time } : {}) };
    if (TOOL_CALLS.has(String(item.type))) {
      messages.push({ role: "assistant", text: "", tools: [text(item.name) ?? "shell"], ...at });
      continue;
    }
    if (item.type !== "message" || (item.role !== "user" && item.role !== "assistant")) continue;
    const parts = Array.isArray(item.content) ? item.content.filter(isRecord) : [];
    const texts = parts
      .filter((part) => part.type === "input_text" || part.type === "output_text")
      .map((part) => text(part.text) ?? "")
      .filter((value) => !INJECTED.some((prefix) => value.trimStart().startsWith(prefix)));
    const images = parts.filter((part) => part.type === "input_image").map(() => "image");
    if (texts.join("").trim() === "" && images.length === 0) continue;
    messages.push({
      role: item.role,
      text: texts.join("\n"),
      ...(images.length > 0 ? { attachments: images } : {}),
      ...at,
    });
  }
  if (messages.length === 0) return;
  const id = sessionId ?? "session";
  yield { id, sessionId: id, ...(sessionTime ? { time: sessionTime } : {}), messages };
}
