import { pinEntry, recordFeedback, snoozeEntry, usageReport } from "../operations/usage.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import { KeyParams, NamespaceQuery } from "../wire/queries.js";
import {
  FeedbackRequestSchema,
  FeedbackResponseSchema,
  MarkedEntryResponseSchema,
  PinRequestSchema,
  SnoozeBodySchema,
  SnoozeRequestSchema,
  UsageQuery,
  UsageResponseSchema,
} from "../wire/usage.js";

// Pins and snoozes follow the entry routes' style: a sub-resource of /v1/memories/{key}
// (POST sets the mark, DELETE clears it), and a body form for keys a path cannot carry
// (dot segments, "/"), which is also what the MCP tools take.

const NOT_FOUND = { 404: { description: "No such key (NOT_FOUND)." } };
const BODY_FORM_NOTE = (bodyForm: string) =>
  `Keys made of dot segments or holding "/" cannot travel in the path: use POST ${bodyForm}.`;
const marked = MarkedEntryResponseSchema;

/** Feedback on recalls, usage statistics, pins and snoozes (docs/usage.md). */
export const usageRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/feedback",
    operationId: "feedback",
    summary: "Record which results of a recall (or a memory context) the agent used",
    description:
      "recallId is the one the recall or context response carried. 404 NOT_FOUND for an unknown recallId (or one retention already removed, or one of another namespace); 400 INVALID_INPUT for a key that was not one of its results; 501 UNSUPPORTED on a backend without usage. Recording a key twice counts once.",
    tag: "usage",
    body: FeedbackRequestSchema,
    responses: {
      200: { description: "What was recorded.", schema: FeedbackResponseSchema },
      404: { description: "Unknown recallId (NOT_FOUND)." },
      ...errorResponses,
    },
    handler: async (input) => json(await recordFeedback(input.body, scopeOf(input))),
  }),
  defineRoute({
    method: "get",
    path: "/v1/usage",
    operationId: "usage",
    summary: "Usage statistics of a namespace's entries, most used first, with candidates",
    description:
      "candidates=true adds pin candidates (used often, on many days and queries) and snooze candidates (surfaced often, almost never used). 501 UNSUPPORTED on a backend without usage.",
    tag: "usage",
    query: UsageQuery,
    responses: {
      200: { description: "The report.", schema: UsageResponseSchema },
      ...errorResponses,
    },
    handler: async (input) => json(await usageReport(input.query, scopeOf(input))),
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories/{key}/pin",
    operationId: "pin",
    summary: "Pin an entry: always eligible for the context, boosted, never pruned",
    description: BODY_FORM_NOTE("/v1/memories/pin"),
    tag: "usage",
    params: KeyParams,
    query: NamespaceQuery,
    responses: {
      200: { description: "The pinned entry.", schema: marked },
      ...NOT_FOUND,
      ...errorResponses,
    },
    handler: async (input) =>
      json({ entry: await pinEntry({ ...input.query, key: input.params.key }, scopeOf(input)) }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/memories/{key}/pin",
    operationId: "unpin",
    summary: "Unpin an entry",
    description: BODY_FORM_NOTE("/v1/memories/pin with pinned: false"),
    tag: "usage",
    params: KeyParams,
    query: NamespaceQuery,
    responses: {
      200: { description: "The entry, no longer pinned.", schema: marked },
      ...NOT_FOUND,
      ...errorResponses,
    },
    handler: async (input) =>
      json({
        entry: await pinEntry(
          { ...input.query, key: input.params.key, pinned: false },
          scopeOf(input),
        ),
      }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories/pin",
    operationId: "pinByKey",
    summary: "Pin or unpin an entry by key (body form: works for every key)",
    tag: "usage",
    body: PinRequestSchema,
    responses: {
      200: { description: "The entry with its mark.", schema: marked },
      ...NOT_FOUND,
      ...errorResponses,
    },
    handler: async (input) => json({ entry: await pinEntry(input.body, scopeOf(input)) }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories/{key}/snooze",
    operationId: "snooze",
    summary: "Snooze an entry: left out of recall and the context until a time",
    description: `Exactly one of until (RFC 3339 or YYYY-MM-DD) and for ("7d", "12h", "30m", "2w" or milliseconds); a time in the past is 400 INVALID_INPUT. ${BODY_FORM_NOTE("/v1/memories/snooze")}`,
    tag: "usage",
    params: KeyParams,
    body: SnoozeBodySchema,
    responses: {
      200: { description: "The snoozed entry.", schema: marked },
      ...NOT_FOUND,
      ...errorResponses,
    },
    handler: async (input) =>
      json({
        entry: await snoozeEntry({ ...input.body, key: input.params.key }, scopeOf(input)),
      }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/memories/{key}/snooze",
    operationId: "unsnooze",
    summary: "Wake a snoozed entry now",
    description: BODY_FORM_NOTE("/v1/memories/snooze with unsnooze: true"),
    tag: "usage",
    params: KeyParams,
    query: NamespaceQuery,
    responses: {
      200: { description: "The entry, no longer snoozed.", schema: marked },
      ...NOT_FOUND,
      ...errorResponses,
    },
    handler: async (input) =>
      json({
        entry: await snoozeEntry(
          { ...input.query, key: input.params.key, unsnooze: true },
          scopeOf(input),
        ),
      }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories/snooze",
    operationId: "snoozeByKey",
    summary: "Snooze or wake an entry by key (body form: works for every key)",
    description:
      "Exactly one of until and for to snooze; unsnooze: true (with neither) to wake it now.",
    tag: "usage",
    body: SnoozeRequestSchema,
    responses: {
      200: { description: "The entry with its mark.", schema: marked },
      ...NOT_FOUND,
      ...errorResponses,
    },
    handler: async (input) => json({ entry: await snoozeEntry(input.body, scopeOf(input)) }),
  }),
];
