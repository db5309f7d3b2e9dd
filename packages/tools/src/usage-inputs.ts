import { InvalidInputError } from "@memory/api";
import { z } from "zod";

// The usage tools' input fields (memory_feedback, memory_pin, memory_snooze, memory_usage),
// kept here once like the others: the HTTP bodies of POST /v1/feedback and the body forms of
// pin and snooze are these fields, so every channel accepts the same values (docs/usage.md).

/** Keys a feedback call may name at once (a recall returns at most 1,000 results). */
const FEEDBACK_KEYS_MAX = 1000;

const keyList = z.array(z.string().min(1)).max(FEEDBACK_KEYS_MAX);

export const feedbackInput = {
  recallId: z
    .string()
    .min(1)
    .max(200)
    .describe("The recallId that memory_recall (or memory_context) returned with its results."),
  used: keyList
    .optional()
    .describe(
      "Keys of the results you actually used to answer (each must be a result of that recall); or give reply instead.",
    ),
  ignored: keyList
    .optional()
    .describe("Keys of results you read and did not use; leave it out when unsure."),
  reply: z
    .string()
    .min(1)
    .max(200_000)
    .optional()
    .describe(
      "Instead of used/ignored: your reply text; a result counts as used when the reply quotes its distinctive words.",
    ),
};

const keyInput = z.string().min(1).describe("The exact key of the memory.");

export const pinInput = {
  key: keyInput,
  pinned: z.boolean().optional().describe("true (the default) pins the memory; false unpins it."),
};

/** A snooze length: a count and a unit (s, m, h, d, w), e.g. "7d" or "12h". */
const DURATION_PATTERN = /^(\d{1,6})(s|m|h|d|w)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
/** The longest snooze `for` accepts: ten years (a longer one is better forgotten). */
const SNOOZE_MAX_MS = 10 * 365 * 86_400_000;

export const snoozeForInput = z
  .union([
    z
      .string()
      .regex(
        DURATION_PATTERN,
        'A snooze length is a count and a unit: "90s", "30m", "12h", "7d" or "2w".',
      ),
    z.number().int().min(1).max(SNOOZE_MAX_MS),
  ])
  .describe('How long: "7d", "12h", "30m", "2w", or milliseconds.');

export const snoozeInput = {
  key: keyInput,
  until: z
    .string()
    .optional()
    .describe("When the memory comes back: a date (2026-12-31) or RFC 3339; not with for."),
  for: snoozeForInput.optional(),
  unsnooze: z
    .boolean()
    .optional()
    .describe("true brings a snoozed memory back now (give neither until nor for)."),
};

export const usageInput = {
  candidates: z
    .boolean()
    .optional()
    .describe(
      "Also list pin candidates (used often, on many days) and snooze candidates (surfaced often, almost never used).",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe("At most this many memories, most used first; default 50."),
};

/**
 * Milliseconds of a snooze length as `snoozeForInput` accepts it ("7d", "12h" or a positive
 * number of milliseconds); anything else is INVALID_INPUT (the CLI's `--for` comes here unchecked).
 */
export function snoozeForMs(value: string | number): number {
  const parsed = snoozeForInput.safeParse(value);
  if (!parsed.success)
    throw new InvalidInputError(
      `Snooze length ${JSON.stringify(value)} is not one: give a count and a unit ("90s", "30m", "12h", "7d", "2w") or a positive number of milliseconds.`,
    );
  if (typeof value === "number") return value;
  const match = DURATION_PATTERN.exec(value)!;
  return Math.min(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS], SNOOZE_MAX_MS);
}
