import { buildContext, recallWithTrace } from "../operations/recall.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import { ContextRequestSchema, RecallRequestSchema } from "../wire/requests.js";
import { ContextResponseSchema, RecallResponseSchema } from "../wire/responses.js";

/** Finding entries for a query, and the memory context block built from them. */
export const recallRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/recall",
    operationId: "recall",
    summary:
      'Recall the best entries for a query (hybrid, keyword or vector), with explain; explain "full" adds the trace: every candidate kept or dropped, and why',
    tag: "memories",
    body: RecallRequestSchema,
    responses: {
      200: { description: "Results, best first.", schema: RecallResponseSchema },
      ...errorResponses,
    },
    handler: async (input) => json(await recallWithTrace(input.body, scopeOf(input))),
  }),
  defineRoute({
    method: "post",
    path: "/v1/context",
    operationId: "buildContext",
    summary: "Build the [Memory context] block for a user message (recall + top core memories)",
    tag: "agent",
    body: ContextRequestSchema,
    responses: {
      200: { description: "The context block.", schema: ContextResponseSchema },
      ...errorResponses,
    },
    handler: async (input) => json(await buildContext(input.body, scopeOf(input))),
  }),
];
