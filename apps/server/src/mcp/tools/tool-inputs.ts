import { writeSessionIdInput } from "@memory/tools";
import { ConsolidateRequestSchema } from "../../wire/requests.js";

/** The turn fields of memory_consolidate and memory_remember (their HTTP bodies' fields). */
export const turnInputs = {
  message: ConsolidateRequestSchema.shape.message.describe(
    "The user's message of the turn, verbatim.",
  ),
  reply: ConsolidateRequestSchema.shape.reply.describe(
    "Your reply to it, when you have written one.",
  ),
  sessionId: writeSessionIdInput,
};
