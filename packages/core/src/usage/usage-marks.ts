import {
  type EntryMark,
  InvalidInputError,
  type KeyOptions,
  type MemoryEntry,
  NotFoundError,
  normalizeTimestamp,
  type SnoozeOptions,
  validateKey,
  validateNamespace,
} from "@memory/api";
import type { FacadeContext } from "../facade-context.js";
import { usageOf } from "./usage-operations.js";

/** The longest snooze `forMs` accepts: ten years. */
const SNOOZE_MAX_MS = 10 * 365 * 86_400_000;

/** `Memory.pin` / `unpin`. */
export function setPinned(
  context: FacadeContext,
  key: string,
  options: KeyOptions,
  pinned: boolean,
): Promise<MemoryEntry> {
  return mark(context, key, options, { pinned });
}

/** `Memory.snooze`: until an instant in the future, given as `until` or `forMs`. */
export function snoozeEntry(
  context: FacadeContext,
  key: string,
  options: SnoozeOptions,
): Promise<MemoryEntry> {
  if (typeof options !== "object" || options === null)
    throw new InvalidInputError("snooze needs { until } or { forMs }.");
  return mark(context, key, options, { snoozedUntil: snoozeEnd(context, options) });
}

/** `Memory.unsnooze`. */
export function unsnoozeEntry(
  context: FacadeContext,
  key: string,
  options: KeyOptions,
): Promise<MemoryEntry> {
  return mark(context, key, options, { snoozedUntil: null });
}

function snoozeEnd(context: FacadeContext, options: SnoozeOptions): string {
  const now = context.options.now();
  if ((options.until === undefined) === (options.forMs === undefined))
    throw new InvalidInputError(
      "snooze needs exactly one of until (a time, e.g. 2026-12-31T09:00:00Z) and forMs (milliseconds, e.g. 604800000 for 7 days).",
    );
  if (options.forMs !== undefined) {
    const forMs = options.forMs;
    if (
      typeof forMs !== "number" ||
      !Number.isInteger(forMs) ||
      forMs <= 0 ||
      forMs > SNOOZE_MAX_MS
    )
      throw new InvalidInputError(
        `forMs must be a whole number of milliseconds from 1 to ${SNOOZE_MAX_MS} (ten years), got ${JSON.stringify(forMs)}.`,
      );
    return new Date(now + forMs).toISOString();
  }
  const until = normalizeTimestamp(options.until, "until");
  if (Date.parse(until) <= now)
    throw new InvalidInputError(
      `until ${JSON.stringify(options.until)} is not in the future: a snooze ends later than now (${new Date(now).toISOString()}).`,
    );
  return until;
}

/** One mark in one write batch; NOT_FOUND when the entry does not exist. */
async function mark(
  context: FacadeContext,
  key: string,
  options: KeyOptions,
  change: Omit<EntryMark, "namespace" | "key">,
): Promise<MemoryEntry> {
  usageOf(context);
  const namespace = validateNamespace(options.namespace);
  const name = validateKey(key);
  const result = await context.driver.write({
    upserts: [],
    supersessions: [],
    deletes: [],
    marks: [{ namespace, key: name, ...change }],
  });
  const entry = result.marked?.[0];
  if (!entry) {
    throw new NotFoundError(
      `No entry with key ${JSON.stringify(name)} in namespace ${JSON.stringify(namespace)}: nothing to ${change.pinned === undefined ? "snooze" : "pin"}. Check the key with \`memory list\`.`,
    );
  }
  context.written(namespace);
  return entry;
}
