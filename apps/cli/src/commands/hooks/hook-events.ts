import type { Memory, MemoryConfig } from "@memory/api";
import { InvalidInputError } from "@memory/api";
import {
  autosaveTurn,
  buildMemoryContext,
  memoryContextOptionsFromConfig,
  remember,
} from "@memory/lifecycle";
import { readLastTurn, type TranscriptTurn } from "./claude-transcript.js";
import { feedbackOnReply, rememberPromptRecall } from "./hook-feedback.js";
import type { HookPayload } from "./hook-payload.js";

/** Core memories printed at session start. */
export const SESSION_START_CORE_LIMIT = 10;

export interface HookWork {
  memory: Memory;
  config: MemoryConfig;
  payload: HookPayload;
  namespace: string | undefined;
}

/**
 * UserPromptSubmit: the memory context for the prompt, or "" when nothing is relevant. Claude
 * Code adds a command hook's stdout (exit 0) to the prompt's context.
 */
export async function promptContext({ memory, config, payload, namespace }: HookWork) {
  const prompt = payload.prompt ?? "";
  if (prompt.trim() === "") return "";
  const context = await buildMemoryContext(memory, prompt, {
    ...memoryContextOptionsFromConfig(config.memory),
    ...(namespace === undefined ? {} : { namespace }),
  });
  await rememberPromptRecall(memory, payload.sessionId, context.recallId, namespace);
  return context.text;
}

/** SessionStart: the top core memories (the standing facts), or "" when there are none. */
export async function sessionStartContext({ memory, namespace }: HookWork) {
  const context = await buildMemoryContext(memory, "", {
    recall: false,
    coreLimit: SESSION_START_CORE_LIMIT,
    ...(namespace === undefined ? {} : { namespace }),
  });
  return context.text;
}

/**
 * Stop: saves the turn that just ended, read from the transcript the payload names. With a chat
 * model configured (chat_provider) `remember` also stores the durable facts in it as core
 * entries; without one the turn is autosaved (a conversation entry and a daily log line).
 */
export async function saveLastTurn({ memory, config, payload, namespace }: HookWork) {
  if (payload.transcriptPath === undefined) {
    throw new InvalidInputError("The Stop hook payload has no transcript_path.");
  }
  const turn = await readLastTurn(payload.transcriptPath);
  if (turn === undefined) return "";
  await saveTurn(memory, config, turn, payload.sessionId, namespace);
  await feedbackOnReply(memory, payload.sessionId, turn.assistantReply);
  return "";
}

/** Codex `notify` (agent-turn-complete): the same save, from the notification's own fields. */
export async function saveCodexTurn(work: HookWork, notification: CodexNotification) {
  const userMessage = notification.inputMessages.at(-1);
  if (userMessage === undefined || userMessage.trim() === "") return "";
  const turn = { userMessage, assistantReply: notification.lastAssistantMessage ?? "" };
  await saveTurn(work.memory, work.config, turn, notification.threadId, work.namespace);
  return "";
}

async function saveTurn(
  memory: Memory,
  config: MemoryConfig,
  turn: TranscriptTurn,
  sessionId: string | undefined,
  namespace: string | undefined,
): Promise<void> {
  const input = {
    userMessage: turn.userMessage,
    ...(turn.assistantReply === "" ? {} : { assistantReply: turn.assistantReply }),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(namespace === undefined ? {} : { namespace }),
  };
  // Loaded here, not at the top: the prompt hook never needs the embeddings package.
  const { resolveChatModel } = await import("@memory/embeddings");
  const chatModel = resolveChatModel(config.memory);
  if (chatModel) {
    await remember(memory, input, { chatModel, retries: config.memory.remember_retries });
  } else {
    await autosaveTurn(memory, input);
  }
}

/** The JSON Codex passes as the last argument of its `notify` program. */
export interface CodexNotification {
  type: string;
  threadId?: string;
  inputMessages: string[];
  lastAssistantMessage?: string;
}

export function parseCodexNotification(text: string): CodexNotification {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidInputError("The Codex notification is not JSON.", { cause: error });
  }
  const messages = parsed["input-messages"];
  return {
    type: String(parsed.type ?? ""),
    ...(typeof parsed["thread-id"] === "string" ? { threadId: parsed["thread-id"] } : {}),
    inputMessages: Array.isArray(messages)
      ? messages.filter((message): message is string => typeof message === "string")
      : [],
    ...(typeof parsed["last-assistant-message"] === "string"
      ? { lastAssistantMessage: parsed["last-assistant-message"] }
      : {}),
  };
}
