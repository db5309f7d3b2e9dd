import { listNamespaces, purgeNamespace, purgeSession } from "../operations/namespaces.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import { NamespaceParams, PurgeSessionQuery, SessionParams } from "../wire/queries.js";
import { PurgeNamespaceRequestSchema } from "../wire/requests.js";
import { NamespacesResponseSchema, PurgeResponseSchema } from "../wire/responses.js";

/** Namespaces and sessions as a whole: the listing of the inspector, and purges. */
export const namespaceRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/namespaces",
    operationId: "listNamespaces",
    summary: "The namespaces the token may use, with entry counts per category",
    description:
      "A scoped token gets its own namespaces (empty ones too), counted with `count`. A full-access token gets every namespace that holds entries, found by one streamed pass over the store.",
    tag: "memories",
    responses: {
      200: { description: "Namespaces, by name.", schema: NamespacesResponseSchema },
      401: errorResponses[401],
    },
    handler: async (input) => json({ namespaces: await listNamespaces(scopeOf(input)) }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/namespaces/purge",
    operationId: "purgeNamespaceByBody",
    summary: "Delete every entry of a namespace named in the body (works for every namespace)",
    tag: "purge",
    body: PurgeNamespaceRequestSchema,
    responses: {
      200: { description: "How many were deleted.", schema: PurgeResponseSchema },
      ...errorResponses,
    },
    handler: async (input) => json({ deleted: await purgeNamespace(input.body, scopeOf(input)) }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/namespaces/{namespace}",
    operationId: "purgeNamespace",
    summary: "Delete every entry of a namespace",
    description:
      'A namespace made of dot segments ("." or "..") cannot travel in the path (DELETE /v1/namespaces/.. arrives as DELETE /v1/, whose 404 names the body form): use POST /v1/namespaces/purge.',
    tag: "purge",
    params: NamespaceParams,
    responses: {
      200: { description: "How many were deleted.", schema: PurgeResponseSchema },
      ...errorResponses,
    },
    handler: async (input) => json({ deleted: await purgeNamespace(input.params, scopeOf(input)) }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/sessions/{sessionId}",
    operationId: "purgeSession",
    summary: "Delete every entry of a session",
    description: "Without `namespace`, in every namespace the token may use.",
    tag: "purge",
    params: SessionParams,
    query: PurgeSessionQuery,
    responses: {
      200: { description: "How many were deleted.", schema: PurgeResponseSchema },
      ...errorResponses,
    },
    handler: async (input) =>
      json({
        deleted: await purgeSession({ ...input.query, ...input.params }, scopeOf(input)),
      }),
  }),
];
