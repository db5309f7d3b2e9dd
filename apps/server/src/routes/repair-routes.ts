import { entryHistory, supersedeEntry, unsupersedeEntry } from "../operations/repair.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import { KeyParams, NamespaceQuery } from "../wire/queries.js";
import {
  HistoryRequestSchema,
  SupersedeRequestSchema,
  UnsupersedeRequestSchema,
} from "../wire/requests.js";
import {
  EntryResponseSchema,
  HistoryResponseSchema,
  SupersedeResponseSchema,
} from "../wire/responses.js";

const historyOf = async (
  input: { key: string; namespace?: string | undefined },
  scope: Parameters<typeof entryHistory>[1],
) => {
  const versions = await entryHistory(input, scope);
  return json({ key: input.key, namespace: versions[0]!.namespace, versions });
};

/** Correcting conflict decisions (supersede, unsupersede) and reading a key's versions. */
export const repairRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/supersede",
    operationId: "markSuperseded",
    summary: "Mark an entry superseded by a newer one (its text is kept for audit)",
    description:
      "Both keys must exist in the namespace (404 NOT_FOUND otherwise, nothing changed). Undo it with POST /v1/unsupersede.",
    tag: "memories",
    body: SupersedeRequestSchema,
    responses: {
      200: {
        description: "The superseded entry and its replacement.",
        schema: SupersedeResponseSchema,
      },
      404: { description: "oldKey or newKey does not exist (NOT_FOUND)." },
      ...errorResponses,
    },
    handler: async (input) => json(await supersedeEntry(input.body, scopeOf(input))),
  }),
  defineRoute({
    method: "post",
    path: "/v1/unsupersede",
    operationId: "unsupersede",
    summary: "Make a superseded entry current again",
    description:
      "For a wrong conflict decision or a wrong supersede. 404 NOT_FOUND when the key does not exist, 409 CONFLICT when the entry is not superseded.",
    tag: "memories",
    body: UnsupersedeRequestSchema,
    responses: {
      200: { description: "The restored entry.", schema: EntryResponseSchema },
      404: { description: "No such key (NOT_FOUND)." },
      409: { description: "The entry is not superseded (CONFLICT)." },
      ...errorResponses,
    },
    handler: async (input) => json({ entry: await unsupersedeEntry(input.body, scopeOf(input)) }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/memories/{key}/history",
    operationId: "history",
    summary: "The versions of a key, newest first",
    description:
      'The entry, then the earlier contents same-key stores replaced (at most history_versions). Keys made of dot segments or holding "/" cannot travel in the path: use POST /v1/memories/history.',
    tag: "memories",
    params: KeyParams,
    query: NamespaceQuery,
    responses: {
      200: { description: "The versions.", schema: HistoryResponseSchema },
      404: { description: "Neither an entry nor a kept version (NOT_FOUND)." },
      ...errorResponses,
    },
    handler: (input) => historyOf({ ...input.query, key: input.params.key }, scopeOf(input)),
  }),
  defineRoute({
    method: "post",
    path: "/v1/memories/history",
    operationId: "historyByKey",
    summary: "The versions of a key, newest first (body form: works for every key)",
    tag: "memories",
    body: HistoryRequestSchema,
    responses: {
      200: { description: "The versions.", schema: HistoryResponseSchema },
      404: { description: "Neither an entry nor a kept version (NOT_FOUND)." },
      ...errorResponses,
    },
    handler: (input) => historyOf(input.body, scopeOf(input)),
  }),
];
