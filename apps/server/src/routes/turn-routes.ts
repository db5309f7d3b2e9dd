import { autosave, consolidate, rememberTurn } from "../operations/turns.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import {
  AutosaveRequestSchema,
  ConsolidateRequestSchema,
  RememberRequestSchema,
} from "../wire/requests.js";
import {
  AutosaveResponseSchema,
  ConsolidateResponseSchema,
  RememberResponseSchema,
} from "../wire/responses.js";

/** Conversation turns: autosave, consolidate (no LLM) and remember (with the chat model). */
export const turnRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/autosave",
    operationId: "autosaveTurn",
    summary: "Autosave a conversation turn (user message as conversation, reply start as daily)",
    tag: "agent",
    body: AutosaveRequestSchema,
    responses: {
      200: { description: "What was stored and skipped.", schema: AutosaveResponseSchema },
      ...errorResponses,
    },
    handler: async (input) => json(await autosave(input.body, scopeOf(input))),
  }),
  defineRoute({
    method: "post",
    path: "/v1/consolidate",
    operationId: "consolidateTurn",
    summary:
      "Consolidate a turn without an LLM: a daily entry, and the user message promoted to core when important",
    description:
      'Stores the turn as a daily entry (`daily_<date>_<uuid>`, "User: ..." and "Assistant: ..." lines), then promotes the user message to core (key derived from its content) when its importance as a core entry is at least 0.8 (a decision, rule, "always", "never", "must"...) and it has at least 10 characters. Older core entries it contradicts or updates are superseded (the conflict check of the store, else the same fact-reading rules). Empty messages and text the autosave filter skips (cron, heartbeat, memory context) store nothing.',
    tag: "agent",
    body: ConsolidateRequestSchema,
    responses: {
      200: {
        description: "What was stored, promoted and superseded.",
        schema: ConsolidateResponseSchema,
      },
      ...errorResponses,
    },
    handler: async (input) => json(await consolidate(input.body, scopeOf(input))),
  }),
  defineRoute({
    method: "post",
    path: "/v1/remember",
    operationId: "rememberTurn",
    summary:
      "Remember a turn with the chat model: the raw turn as conversation, its durable facts as core entries",
    description:
      "Stores the turn as a conversation entry first, then asks the configured chat model (chat_provider, resolved once at start) for the durable facts in it (preferences, decisions, biographical and project facts) and stores each as a core entry (an upsert on the fact's key; conflict handling on store applies). An unusable answer is asked again up to remember_retries times. When the model fails or keeps answering garbage, the error keeps the chat error's code (BACKEND_UNAVAILABLE for unusable answers, else the model call's: TIMEOUT, ...) and names the stored turn: the raw turn is stored anyway, no fact is. Without a chat model: 501 UNSUPPORTED (set chat_provider). Turns the autosave filter skips are not stored nor sent to the model.",
    tag: "agent",
    body: RememberRequestSchema,
    responses: {
      200: { description: "The stored turn and facts.", schema: RememberResponseSchema },
      501: { description: "The server has no chat model: set chat_provider (UNSUPPORTED)." },
      503: {
        description:
          "The chat model kept answering unusable JSON or is unreachable (BACKEND_UNAVAILABLE); the turn is stored.",
      },
      ...errorResponses,
    },
    handler: async (input) => json(await rememberTurn(input.body, scopeOf(input))),
  }),
];
