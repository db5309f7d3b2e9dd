import { randomUUID } from "node:crypto";
import {
  type DriverUsage,
  type FeedbackInput,
  type FeedbackReport,
  InvalidInputError,
  type KeyOptions,
  type MemoryEntry,
  NotFoundError,
  normalizeTimestamp,
  type PruneUsageOptions,
  type TrackRecallInput,
  UnsupportedOperationError,
  type UsageEvent,
  type UsageSource,
  validateKey,
  validateNamespace,
  validateQuery,
} from "@memory/api";
import type { FacadeContext } from "../facade-context.js";
import { attributeReply } from "./reply-attribution.js";
import { usageQuery } from "./usage-stats.js";

const RECALL_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SOURCES: readonly UsageSource[] = ["recall", "context", "tracked"];
/** Feedback and tracked recalls name at most this many keys (a context shows a handful). */
const KEYS_MAX = 1_000;
const DAY_MS = 86_400_000;

/** The driver's usage storage, or UNSUPPORTED saying which backends have it. */
export function usageOf(context: FacadeContext): DriverUsage {
  const usage = context.driver.usage;
  if (!context.driver.capabilities.usage || !usage) {
    throw new UnsupportedOperationError(
      `The ${context.driver.name} backend keeps no usage (recall ids, feedback, pins, snoozes): use sqlite, postgres, markdown or memory.`,
    );
  }
  return usage;
}

/** Whether a recall with this `track` option records its results (and gets a recallId). */
export function tracks(context: FacadeContext, track: unknown): boolean {
  if (track !== undefined && typeof track !== "boolean")
    throw new InvalidInputError(`track must be true or false, got ${JSON.stringify(track)}.`);
  const wanted = track ?? context.options.settings.usageTracking;
  return wanted && context.usage !== undefined;
}

/**
 * Queues the `surfaced` events of a recall's results and returns its id; undefined when nothing
 * stored was surfaced (an empty recall has nothing to give feedback on). Results that are not
 * stored entries (an external source's) are not counted.
 */
export function recordSurfaced(
  context: FacadeContext,
  namespace: string,
  query: string,
  results: readonly Pick<MemoryEntry, "key" | "explain">[],
  source: UsageSource,
): string | undefined {
  const recallId = randomUUID();
  const at = new Date(context.options.now()).toISOString();
  const stored = usageQuery(query, context.options.settings.usageStoreQueries);
  const events: UsageEvent[] = [];
  for (const entry of results) {
    if (entry.explain?.source === "external") continue;
    const event: UsageEvent = { recallId, namespace, key: entry.key, kind: "surfaced", at, source };
    if (stored !== undefined) event.query = stored;
    events.push(event);
  }
  if (events.length === 0) return undefined;
  context.usage?.add(events);
  return recallId;
}

/**
 * `Memory.trackRecall`: an agent's own retrieval results, recorded like a recall's. Keys that
 * are not entries of the namespace are not counted (an entry forgotten since it was shown).
 */
export async function trackRecall(
  context: FacadeContext,
  input: TrackRecallInput,
): Promise<string> {
  usageOf(context);
  if (typeof input !== "object" || input === null)
    throw new InvalidInputError("trackRecall needs { query, keys }.");
  const namespace = validateNamespace(input.namespace);
  const query = validateQuery(input.query);
  const keys = validateKeys(input.keys, "keys");
  if (keys.length === 0) throw new InvalidInputError("keys must name at least one entry.");
  const source = input.source ?? "tracked";
  if (!SOURCES.includes(source))
    throw new InvalidInputError(
      `source must be recall, context or tracked, got ${JSON.stringify(source)}.`,
    );
  const found = await context.driver.read(keys.map((key) => ({ namespace, key })));
  const entries = found.filter((entry): entry is MemoryEntry => entry !== undefined);
  const recallId = recordSurfaced(context, namespace, query, entries, source);
  if (recallId === undefined) {
    throw new NotFoundError(
      `None of the keys ${keys.map((key) => JSON.stringify(key)).join(", ")} is an entry of namespace ${JSON.stringify(namespace)}: track only what a recall or list returned.`,
    );
  }
  return recallId;
}

/**
 * `Memory.feedback`: appends `used` and `ignored` events under the recall's id, for keys that
 * recall surfaced and that no earlier feedback already credited.
 */
export async function recordFeedback(
  context: FacadeContext,
  input: FeedbackInput,
): Promise<FeedbackReport> {
  const usage = usageOf(context);
  if (typeof input !== "object" || input === null)
    throw new InvalidInputError("feedback needs { recallId, used, ignored? }.");
  const namespace = validateNamespace(input.namespace);
  const recallId = validateRecallId(input.recallId);
  const used = validateKeys(input.used, "used");
  const ignored = validateKeys(input.ignored ?? [], "ignored");
  const both = used.filter((key) => ignored.includes(key));
  if (both.length > 0)
    throw new InvalidInputError(
      `A key cannot be both used and ignored: ${both.map((key) => JSON.stringify(key)).join(", ")}.`,
    );
  const events = await recallEvents(context, usage, namespace, recallId);
  return appendFeedback(context, events, used, ignored);
}

/** `Memory.feedbackFromReply`: feedback inferred from the words the reply quotes. */
export async function feedbackFromReply(
  context: FacadeContext,
  recallId: string,
  reply: unknown,
  options: KeyOptions,
): Promise<FeedbackReport> {
  const usage = usageOf(context);
  const namespace = validateNamespace(options.namespace);
  if (typeof reply !== "string")
    throw new InvalidInputError(`reply must be the assistant's reply text, got ${typeof reply}.`);
  const events = await recallEvents(context, usage, namespace, validateRecallId(recallId));
  const keys = [...surfacedKeys(events)];
  const entries = await context.driver.read(keys.map((key) => ({ namespace, key })));
  const results = entries.filter((entry): entry is MemoryEntry => entry !== undefined);
  const { used, ignored } = attributeReply(results, reply);
  return appendFeedback(context, events, used, ignored);
}

/**
 * Appends the feedback events of one recall (given its events): every key must be one of its
 * results; a key an earlier feedback already credited is not counted again.
 */
async function appendFeedback(
  context: FacadeContext,
  events: readonly UsageEvent[],
  used: string[],
  ignored: string[],
): Promise<FeedbackReport> {
  const recalled = events.find((event) => event.kind === "surfaced")!;
  const { recallId, namespace } = recalled;
  const surfaced = surfacedKeys(events);
  const unknown = [...used, ...ignored].filter((key) => !surfaced.has(key));
  if (unknown.length > 0) {
    const shown = [...surfaced];
    throw new InvalidInputError(
      `Not a result of recall ${recallId}: ${unknown.map((key) => JSON.stringify(key)).join(", ")}. Its results were ${shown.length > 0 ? shown.map((key) => JSON.stringify(key)).join(", ") : "none"}.`,
    );
  }
  const credited = new Set(events.filter((e) => e.kind !== "surfaced").map((e) => e.key));
  const at = new Date(context.options.now()).toISOString();
  const fresh = (keys: string[], kind: "used" | "ignored") =>
    keys
      .filter((key) => !credited.has(key))
      .map((key): UsageEvent => {
        const event: UsageEvent = { recallId, namespace, key, kind, at, source: recalled.source };
        if (recalled.query !== undefined) event.query = recalled.query;
        return event;
      });
  const appended = [...fresh(used, "used"), ...fresh(ignored, "ignored")];
  if (appended.length > 0) await context.usage?.write(appended);
  return { recallId, used, ignored };
}

function surfacedKeys(events: readonly UsageEvent[]): Set<string> {
  return new Set(events.filter((event) => event.kind === "surfaced").map((event) => event.key));
}

function validateRecallId(recallId: unknown): string {
  if (typeof recallId !== "string" || !RECALL_ID.test(recallId))
    throw new InvalidInputError(
      `recallId must be the recallId a recall or memory context returned, got ${JSON.stringify(recallId)}.`,
    );
  return recallId;
}

/** The events of one recall (its own first); NOT_FOUND when the id is unknown or pruned. */
async function recallEvents(
  context: FacadeContext,
  usage: DriverUsage,
  namespace: string,
  recallId: string,
): Promise<UsageEvent[]> {
  await context.usage?.drain();
  let events = await usage.events(namespace, recallId);
  const surfaced = () => events.some((event) => event.kind === "surfaced");
  // Another worker may have served the recall and not written its events yet.
  if (!surfaced() && context.usage) {
    await context.usage.awaitOtherProcesses();
    events = await usage.events(namespace, recallId);
  }
  if (!surfaced()) {
    throw new NotFoundError(
      `No recall ${JSON.stringify(recallId)} in namespace ${JSON.stringify(namespace)}: use a recallId returned by a recall or memory context of this namespace (ids are forgotten after usage_event_retention_days).`,
    );
  }
  return events;
}

/** `Memory.pruneUsage`: events past the retention go; the per-entry statistics stay. */
export async function pruneUsageEvents(
  context: FacadeContext,
  options: PruneUsageOptions,
): Promise<number> {
  const usage = usageOf(context);
  const settings = context.options.settings;
  const olderThan =
    options.olderThan !== undefined
      ? normalizeTimestamp(options.olderThan, "olderThan")
      : new Date(context.options.now() - settings.usageEventRetentionDays * DAY_MS).toISOString();
  const keep = options.keep ?? settings.usageEventMax;
  if (!Number.isInteger(keep) || keep < 0)
    throw new InvalidInputError(`keep must be an integer >= 0, got ${JSON.stringify(keep)}.`);
  await context.usage?.drain();
  return usage.prune(olderThan, keep);
}

/** Keys of a feedback or tracked recall: an array of valid, distinct keys. */
function validateKeys(keys: unknown, field: string): string[] {
  if (!Array.isArray(keys))
    throw new InvalidInputError(`${field} must be an array of keys, got ${JSON.stringify(keys)}.`);
  if (keys.length > KEYS_MAX)
    throw new InvalidInputError(`${field} names ${keys.length} keys; at most ${KEYS_MAX}.`);
  return [...new Set(keys.map((key) => validateKey(key, field)))];
}
