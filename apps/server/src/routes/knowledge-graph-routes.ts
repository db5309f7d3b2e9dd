import { entityKnowledgeGraph } from "../operations/knowledge-graph.js";
import { defineRoute, errorResponses, json, scopeOf } from "../route-spec.js";
import {
  KnowledgeGraphRequestSchema,
  KnowledgeGraphResponseSchema,
} from "../wire/knowledge-graph.js";

/** Knowledge-graph triples about an entity at a time (docs/knowledge-graph.md). */
export const knowledgeGraphRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/kg",
    operationId: "knowledgeGraph",
    summary: "The triples about an entity that hold now, or at asOf",
    description:
      "Triples with the entity as subject or object, valid at asOf (validFrom <= asOf < validTo), newest first. An empty or nameless entity, or an asOf that is not a time, is a 400 INVALID_INPUT.",
    tag: "relations",
    body: KnowledgeGraphRequestSchema,
    responses: {
      200: { description: "The triples.", schema: KnowledgeGraphResponseSchema },
      ...errorResponses,
    },
    handler: async (input) => json(await entityKnowledgeGraph(input.body, scopeOf(input))),
  }),
];
