import type { MemoryEntry } from "@memory/api";
import { autosaveTurn, type ConsolidationReport, type RememberResult } from "@memory/lifecycle";
import { resolveNamespace } from "../access.js";
import { consolidateOne, rememberOne, type TurnInput } from "../agent-turns.js";
import { defined } from "../defined.js";
import {
  type OperationScope,
  type OperationSettings,
  withoutEmbeddings,
} from "./operation-scope.js";

export type { TurnInput };

export interface AutosaveInput {
  userMessage: string;
  assistantReply?: string | undefined;
  sessionId?: string | undefined;
  namespace?: string | undefined;
}

export interface AutosaveReport {
  stored: MemoryEntry[];
  skipped: Awaited<ReturnType<typeof autosaveTurn>>["skipped"];
}

/** The user message as a conversation entry, the reply's start as a daily one. */
export async function autosave(
  input: AutosaveInput,
  { memory, access }: OperationScope,
): Promise<AutosaveReport> {
  const namespace = resolveNamespace(access, input.namespace);
  const saved = await autosaveTurn(memory, defined({ ...input, namespace }));
  return { stored: withoutEmbeddings(saved.stored), skipped: saved.skipped };
}

/** A turn consolidated without an LLM, at the configured conflict threshold. */
export async function consolidate(
  input: TurnInput & { namespace?: string | undefined },
  scope: OperationScope & Pick<OperationSettings, "turnSettings">,
): Promise<ConsolidationReport> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  return consolidateOne(scope.memory, input, namespace, scope.turnSettings);
}

/** A turn remembered with the chat model: the raw turn, then its durable facts. */
export async function rememberTurn(
  input: TurnInput & { namespace?: string | undefined },
  scope: OperationScope & Pick<OperationSettings, "turnSettings" | "chatModel">,
): Promise<RememberResult> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  return rememberOne(scope.memory, scope.chatModel, input, namespace, {
    ...scope.turnSettings,
    ...(scope.signal ? { signal: scope.signal } : {}),
  });
}
