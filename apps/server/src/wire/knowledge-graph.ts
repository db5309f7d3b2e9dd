import { z } from "zod";
import { named, namespace, timestamp } from "./fields.js";

// Shapes only: the library checks the entity and the time and answers 400 INVALID_INPUT.

export const KnowledgeGraphRequestSchema = named(
  "KnowledgeGraphRequest",
  z
    .object({
      entity: z
        .string()
        .describe('The name as it is written ("Melanie", "Acme"); "user" (or "me") for the user.'),
      asOf: z
        .string()
        .optional()
        .describe("The time the triples must hold at: RFC 3339 or YYYY-MM-DD; default now."),
      namespace: namespace.optional(),
    })
    .strict(),
);

export const TripleSchema = named(
  "Triple",
  z
    .object({
      key: z.string().describe("The key of the triple's entry (category triple)."),
      subject: z.string().describe("The subject's entity id (folded name; user for the user)."),
      predicate: z.string().describe("One of the closed list (docs/knowledge-graph.md)."),
      object: z.string().describe("The object's entity id."),
      subjectName: z.string(),
      objectName: z.string(),
      validFrom: timestamp,
      validTo: timestamp.nullable().describe("Null while the triple holds."),
    })
    .describe("A subject-predicate-object fact with its interval of validity."),
);

export const KnowledgeGraphResponseSchema = named(
  "KnowledgeGraph",
  z.object({
    entity: z.string(),
    namespace: z.string(),
    asOf: timestamp,
    triples: z.array(TripleSchema).describe("Valid at asOf, newest validFrom first."),
  }),
);
