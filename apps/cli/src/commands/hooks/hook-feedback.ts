import type { Memory } from "@memory/api";

/**
 * Feedback for agents that never call it (docs/usage.md): the prompt hook remembers the recall id
 * of the memory context it printed, per session, and the stop hook gives the assistant's reply
 * to `feedbackFromReply` with it, so what the reply quoted counts as used. The ids live in the
 * store's job state (both hooks are separate processes), the 50 most recent sessions at most.
 */
export const HOOK_RECALLS_JOB = "hook-recalls";
const SESSIONS_KEPT = 50;

interface PendingRecall {
  sessionId: string;
  recallId: string;
  namespace?: string;
}

async function pending(memory: Memory): Promise<PendingRecall[]> {
  const state = await memory.getJobState(HOOK_RECALLS_JOB);
  const sessions = (state as { sessions?: unknown } | null)?.sessions;
  return Array.isArray(sessions) ? (sessions as PendingRecall[]) : [];
}

/** After the prompt hook: the context's recall id, for this session's stop hook. */
export async function rememberPromptRecall(
  memory: Memory,
  sessionId: string | undefined,
  recallId: string | undefined,
  namespace: string | undefined,
): Promise<void> {
  if (sessionId === undefined || recallId === undefined) return;
  const kept = (await pending(memory)).filter((item) => item.sessionId !== sessionId);
  kept.push({ sessionId, recallId, ...(namespace === undefined ? {} : { namespace }) });
  const sessions = kept.slice(-SESSIONS_KEPT);
  await memory.setJobState(HOOK_RECALLS_JOB, { sessions });
}

/**
 * After the stop hook saved the turn: feedback on the session's last context from the reply.
 * Usage is advice: an id already pruned, or a backend without usage, changes nothing and never
 * fails the hook.
 */
export async function feedbackOnReply(
  memory: Memory,
  sessionId: string | undefined,
  reply: string,
): Promise<void> {
  if (sessionId === undefined || reply.trim() === "" || !memory.capabilities.usage) return;
  const sessions = await pending(memory);
  const found = sessions.find((item) => item.sessionId === sessionId);
  if (!found) return;
  await memory.setJobState(HOOK_RECALLS_JOB, {
    sessions: sessions.filter((item) => item !== found),
  });
  await memory
    .feedbackFromReply(found.recallId, reply, {
      ...(found.namespace === undefined ? {} : { namespace: found.namespace }),
    })
    .catch(() => undefined);
}
