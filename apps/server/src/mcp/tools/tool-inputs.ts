import { ConsolidateRequestSchema, fields } from "../../schemas.js";

/** `namespace` of every tool: the routes' field, described for the model. */
export const namespaceInput = fields.namespace
  .optional()
  .describe(
    "Optional memory space to use. Leave it out unless you were told which namespace to use.",
  );

/** The turn fields of memory_consolidate and memory_remember (their HTTP bodies' fields). */
export const turnInputs = {
  message: ConsolidateRequestSchema.shape.message.describe(
    "The user's message of the turn, verbatim.",
  ),
  reply: ConsolidateRequestSchema.shape.reply.describe(
    "Your reply to it, when you have written one.",
  ),
  sessionId: fields.sessionId
    .optional()
    .describe("The current conversation/session id, if you have one."),
};
