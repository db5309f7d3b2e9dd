import { entryRelations, relateEntries, unrelateEntries } from "../operations/relations.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import { KeyParams } from "../wire/queries.js";
import {
  RelateRequestSchema,
  RelationResponseSchema,
  RelationsQuery,
  RelationsRequestSchema,
  RelationsResponseSchema,
  UnrelateQuery,
  UnrelateResponseSchema,
} from "../wire/relations.js";

const UNSUPPORTED = {
  description: "The backend stores no relations (UNSUPPORTED; see capabilities.relations).",
};

/** Relations between entries of one namespace (docs/relations.md). */
export const relationRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/relations",
    operationId: "relate",
    summary:
      "Relate two entries with a typed, weighted edge (idempotent: keeps the stronger weight)",
    description:
      "Both entries must exist in the namespace (404 NOT_FOUND: store them first). A self-relation, a bad type, a weight outside 0..1 or oversized metadata is a 400 INVALID_INPUT; nothing is written.",
    tag: "relations",
    body: RelateRequestSchema,
    responses: {
      200: { description: "The edge as stored now.", schema: RelationResponseSchema },
      404: { description: "from or to does not exist (NOT_FOUND)." },
      501: UNSUPPORTED,
      ...errorResponses,
    },
    handler: async (input) => json({ relation: await relateEntries(input.body, scopeOf(input)) }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/relations",
    operationId: "unrelate",
    summary: "Remove the edges from one entry to another (of one type, or of every type)",
    tag: "relations",
    query: UnrelateQuery,
    responses: {
      200: { description: "How many edges went.", schema: UnrelateResponseSchema },
      501: UNSUPPORTED,
      ...errorResponses,
    },
    handler: async (input) => json({ removed: await unrelateEntries(input.query, scopeOf(input)) }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/relations/{key}",
    operationId: "relations",
    summary: "The edges of an entry, strongest first",
    description:
      'Keys made of dot segments or holding "/" cannot travel in the path: use POST /v1/relations/query.',
    tag: "relations",
    params: KeyParams,
    query: RelationsQuery,
    responses: {
      200: { description: "The edges.", schema: RelationsResponseSchema },
      404: { description: "No entry under the key (NOT_FOUND)." },
      501: UNSUPPORTED,
      ...errorResponses,
    },
    handler: async (input) =>
      json(await entryRelations({ ...input.query, key: input.params.key }, scopeOf(input))),
  }),
  defineRoute({
    method: "post",
    path: "/v1/relations/query",
    operationId: "relationsByKey",
    summary: "The edges of an entry (body form: works for every key)",
    tag: "relations",
    body: RelationsRequestSchema,
    responses: {
      200: { description: "The edges.", schema: RelationsResponseSchema },
      404: { description: "No entry under the key (NOT_FOUND)." },
      501: UNSUPPORTED,
      ...errorResponses,
    },
    handler: async (input) => json(await entryRelations(input.body, scopeOf(input))),
  }),
];
