import { feedbackInput, pinInput, snoozeInput, usageInput } from "@memory/tools";
import { z } from "zod";
import { MemoryEntrySchema } from "./entry.js";
import { named, namespace, timestamp } from "./fields.js";
import { UsageStatsSchema } from "./usage-stats.js";

// Usage over HTTP (docs/usage.md): feedback on a recall, pins and snoozes, the usage report.
// The fields are @memory/tools' (the MCP tools take the same); the library checks the rest
// (an unknown recallId is 404 NOT_FOUND, a key that was not a result or a past time 400).

export const FeedbackRequestSchema = named(
  "FeedbackRequest",
  z.object({ ...feedbackInput, namespace: namespace.optional() }).strict(),
);

export const FeedbackResponseSchema = named(
  "FeedbackResponse",
  z.object({
    recallId: z.string(),
    used: z.array(z.string()).describe("Keys recorded as used."),
    ignored: z.array(z.string()).describe("Keys recorded as ignored."),
  }),
);

/** `POST /v1/memories/pin`: the body form (every key, even one a path cannot carry). */
export const PinRequestSchema = named(
  "PinRequest",
  z.object({ ...pinInput, namespace: namespace.optional() }).strict(),
);

/** `POST /v1/memories/{key}/snooze`: when the entry comes back. */
export const SnoozeBodySchema = named(
  "SnoozeBody",
  z
    .object({
      until: snoozeInput.until,
      for: snoozeInput.for,
      namespace: namespace.optional(),
    })
    .strict(),
);

/** `POST /v1/memories/snooze`: the body form, which also wakes an entry (`unsnooze: true`). */
export const SnoozeRequestSchema = named(
  "SnoozeRequest",
  z.object({ ...snoozeInput, namespace: namespace.optional() }).strict(),
);

const EntryUsageSchema = named(
  "EntryUsage",
  z.object({
    key: z.string(),
    stats: UsageStatsSchema,
    pinned: z.boolean(),
    snoozedUntil: timestamp.optional(),
  }),
);

export const UsageResponseSchema = named(
  "UsageReport",
  z.object({
    namespace: z.string(),
    entries: z.array(EntryUsageSchema).describe("Most used first."),
    pinCandidates: z
      .array(EntryUsageSchema)
      .optional()
      .describe("With candidates: used often, on many days and for many queries, not pinned."),
    snoozeCandidates: z
      .array(EntryUsageSchema)
      .optional()
      .describe("With candidates: surfaced often, almost never used, not snoozed now."),
  }),
);

export const MarkedEntryResponseSchema = named(
  "MarkedEntryResponse",
  z.object({ entry: MemoryEntrySchema.describe("The entry with its pinned and snoozedUntil.") }),
);

/** `GET /v1/usage`'s query string (text on the wire). */
export const UsageQuery = z
  .object({
    namespace: namespace.optional(),
    candidates: z
      .enum(["true", "false", "1", "0"])
      .transform((value) => value === "true" || value === "1")
      .optional()
      .describe(usageInput.candidates.description ?? ""),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe("At most this many entries, most used first; default 50."),
  })
  .strict();
