import { entityEntries, namespaceEntities } from "../operations/entities.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import {
  EntitiesQuery,
  EntitiesResponseSchema,
  EntityParams,
  EntityQuery,
  EntityRequestSchema,
  EntityResponseSchema,
} from "../wire/entities.js";

const UNSUPPORTED = {
  description: "The backend stores no relations, so no entities (UNSUPPORTED).",
};
const MISSING = { description: "No entry names it (NOT_FOUND), or the name has no letters (400)." };

/** Entities read from entries without a model (docs/entities.md). */
export const entityRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/entities",
    operationId: "entities",
    summary:
      "The people, places, organisations and products the entries name, most mentioned first",
    description:
      "Read on store and import when entity_reading is on; an entity no entry names any more is left out.",
    tag: "entities",
    query: EntitiesQuery,
    responses: {
      200: { description: "The entities.", schema: EntitiesResponseSchema },
      501: UNSUPPORTED,
      ...errorResponses,
    },
    handler: async (input) => json(await namespaceEntities(input.query, scopeOf(input))),
  }),
  defineRoute({
    method: "get",
    path: "/v1/entities/{name}",
    operationId: "entity",
    summary: "What the memory says about one entity: the entries that name it, newest first",
    tag: "entities",
    params: EntityParams,
    query: EntityQuery,
    responses: {
      200: { description: "The entity and its entries.", schema: EntityResponseSchema },
      404: MISSING,
      501: UNSUPPORTED,
      ...errorResponses,
    },
    handler: async (input) =>
      json(await entityEntries({ ...input.query, name: input.params.name }, scopeOf(input))),
  }),
  defineRoute({
    method: "post",
    path: "/v1/entities/query",
    operationId: "entityByName",
    summary: "What the memory says about one entity (body form: works for every name)",
    tag: "entities",
    body: EntityRequestSchema,
    responses: {
      200: { description: "The entity and its entries.", schema: EntityResponseSchema },
      404: MISSING,
      501: UNSUPPORTED,
      ...errorResponses,
    },
    handler: async (input) => json(await entityEntries(input.body, scopeOf(input))),
  }),
];
