import {
  type FeedbackReport,
  InvalidInputError,
  type MemoryEntry,
  type SnoozeOptions,
  type UsageReport,
} from "@memory/api";
import { snoozeForMs } from "@memory/tools";
import { resolveNamespace } from "../access.js";
import { defined } from "../defined.js";
import { type OperationScope, withoutEmbeddings } from "./operation-scope.js";

// Usage for every channel (HTTP, MCP; docs/usage.md): the library records and checks (an
// unknown recallId is NOT_FOUND, a key that was not a result or a past time INVALID_INPUT, a
// backend without capabilities.usage UNSUPPORTED); this layer applies the token's namespace
// scope and turns a snooze length ("7d") into milliseconds.

export interface FeedbackRequest {
  recallId: string;
  used?: string[] | undefined;
  ignored?: string[] | undefined;
  /** Instead of used/ignored: the reply, from which the library infers them. */
  reply?: string | undefined;
  namespace?: string | undefined;
}

/**
 * Records which results of a recall the agent used (and ignored), in the caller's namespace:
 * given as keys, or inferred from the reply's words (`feedbackFromReply`).
 */
export async function recordFeedback(
  input: FeedbackRequest,
  { memory, access }: OperationScope,
): Promise<FeedbackReport> {
  // The recall's events are looked up in this namespace only: a token for "a" cannot feed back
  // on a recall made in "b", even knowing its recallId.
  const namespace = resolveNamespace(access, input.namespace);
  const { reply, used, ignored, recallId } = input;
  if ((reply === undefined) === (used === undefined))
    throw new InvalidInputError(
      "feedback needs either used (the keys you used, [] for none) or reply (your reply text, to infer them from), not both.",
    );
  if (reply !== undefined) {
    if (ignored !== undefined)
      throw new InvalidInputError("ignored goes with used; with reply, both are inferred.");
    return memory.feedbackFromReply(recallId, reply, { namespace });
  }
  return memory.feedback(defined({ recallId, used: used ?? [], ignored, namespace }));
}

export interface PinRequest {
  key: string;
  /** Default true; false unpins. */
  pinned?: boolean | undefined;
  namespace?: string | undefined;
}

export async function pinEntry(
  input: PinRequest,
  { memory, access }: OperationScope,
): Promise<MemoryEntry> {
  const namespace = resolveNamespace(access, input.namespace);
  const entry =
    input.pinned === false
      ? await memory.unpin(input.key, { namespace })
      : await memory.pin(input.key, { namespace });
  return withoutEmbeddings([entry])[0]!;
}

export interface SnoozeRequest {
  key: string;
  until?: string | undefined;
  /** A length ("7d", "12h") or milliseconds. */
  for?: string | number | undefined;
  /** true: wake the entry now (neither until nor for). */
  unsnooze?: boolean | undefined;
  namespace?: string | undefined;
}

/** Snoozes `key` until a time or for a while, or wakes it (`unsnooze`). */
export async function snoozeEntry(
  input: SnoozeRequest,
  { memory, access }: OperationScope,
): Promise<MemoryEntry> {
  const namespace = resolveNamespace(access, input.namespace);
  const given = [input.until, input.for].filter((value) => value !== undefined).length;
  if (input.unsnooze === true) {
    if (given > 0)
      throw new InvalidInputError(
        "unsnooze brings the entry back now: give neither until nor for with it.",
      );
    return withoutEmbeddings([await memory.unsnooze(input.key, { namespace })])[0]!;
  }
  if (given !== 1)
    throw new InvalidInputError(
      'Say how long to snooze: exactly one of until (a date or RFC 3339 time) and for ("7d", "12h" or milliseconds).',
    );
  const options: SnoozeOptions =
    input.until !== undefined
      ? { namespace, until: input.until }
      : { namespace, forMs: snoozeForMs(input.for!) };
  return withoutEmbeddings([await memory.snooze(input.key, options)])[0]!;
}

export interface UsageRequest {
  candidates?: boolean | undefined;
  limit?: number | undefined;
  namespace?: string | undefined;
}

/** The namespace's usage statistics, most used first, with pin and snooze candidates on request. */
export async function usageReport(
  input: UsageRequest,
  { memory, access }: OperationScope,
): Promise<UsageReport> {
  const namespace = resolveNamespace(access, input.namespace);
  return memory.usage(defined({ ...input, namespace }));
}
