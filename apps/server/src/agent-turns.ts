import type { ChatModel, Memory, MemoryEntry } from "@memory/api";
import {
  type ConsolidationReport,
  consolidateTurn,
  type RememberResult,
  remember,
} from "@memory/lifecycle";
import { HttpError } from "./http-error.js";

/** Settings of the turn operations from memory.toml (`[memory]`). */
export interface TurnSettings {
  /** `conflict_threshold`: the conflict check of a promoted message (consolidate). */
  conflictThreshold?: number;
  /** `remember_retries`: extra model calls after an unusable answer (remember). */
  rememberRetries?: number;
}

/** One conversation turn, as the HTTP body and the MCP tools give it. */
export interface TurnInput {
  message: string;
  reply?: string | undefined;
  sessionId?: string | undefined;
}

function compact<T extends MemoryEntry>(entry: T): T {
  const { embedding: _embedding, ...rest } = entry;
  return rest as T;
}

function turnOf(turn: TurnInput, namespace: string) {
  return {
    userMessage: turn.message,
    ...(turn.reply === undefined ? {} : { assistantReply: turn.reply }),
    ...(turn.sessionId === undefined ? {} : { sessionId: turn.sessionId }),
    namespace,
  };
}

/** `consolidateTurn` at the configured conflict threshold; entries without embeddings. */
export async function consolidateOne(
  memory: Memory,
  turn: TurnInput,
  namespace: string,
  settings: TurnSettings,
): Promise<ConsolidationReport> {
  const report = await consolidateTurn(
    memory,
    turnOf(turn, namespace),
    settings.conflictThreshold === undefined
      ? {}
      : { conflictThreshold: settings.conflictThreshold },
  );
  return {
    ...report,
    ...(report.daily ? { daily: compact(report.daily) } : {}),
    ...(report.promoted ? { promoted: compact(report.promoted) } : {}),
  };
}

/** The error of a remember call on a server without a chat model. */
export function noChatModel(): HttpError {
  return new HttpError(
    "UNSUPPORTED",
    "remember needs a chat model and this server has none: set chat_provider in [memory] of memory.toml (openai, openrouter, gemini or custom:<base-url>) or MEMORY_CHAT_PROVIDER, with its API key, and restart the server. POST /v1/consolidate works without one.",
  );
}

/**
 * `remember` with the server's chat model and `remember_retries`; UNSUPPORTED without a chat
 * model. A `ChatOutputError` propagates with its code: the raw turn is stored by then.
 */
export async function rememberOne(
  memory: Memory,
  chatModel: ChatModel | null | undefined,
  turn: TurnInput,
  namespace: string,
  settings: TurnSettings & { signal?: AbortSignal },
): Promise<RememberResult> {
  if (!chatModel) throw noChatModel();
  const result = await remember(memory, turnOf(turn, namespace), {
    chatModel,
    ...(settings.rememberRetries === undefined ? {} : { retries: settings.rememberRetries }),
    ...(settings.signal ? { signal: settings.signal } : {}),
  });
  return {
    ...result,
    turn: result.turn ? compact(result.turn) : null,
    facts: result.facts.map(compact),
  };
}
