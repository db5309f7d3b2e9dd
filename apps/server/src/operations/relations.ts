import type { Relation, RelationDirection } from "@memory/api";
import { resolveNamespace } from "../access.js";
import type { OperationScope } from "./operation-scope.js";

// Relations for every channel (HTTP, MCP): the library validates and answers with typed errors;
// this layer only applies the token's namespace scope.

export interface RelateInput {
  from: string;
  to: string;
  type: string;
  weight?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
  namespace?: string | undefined;
}

export async function relateEntries(
  input: RelateInput,
  { memory, access }: OperationScope,
): Promise<Relation> {
  const namespace = resolveNamespace(access, input.namespace);
  return memory.relate(input.from, input.to, input.type, {
    namespace,
    ...(input.weight === undefined ? {} : { weight: input.weight }),
    ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
  });
}

export async function unrelateEntries(
  input: { from: string; to: string; type?: string | undefined; namespace?: string | undefined },
  { memory, access }: OperationScope,
): Promise<number> {
  const namespace = resolveNamespace(access, input.namespace);
  return memory.unrelate(input.from, input.to, input.type, { namespace });
}

export interface RelationsInput {
  key: string;
  namespace?: string | undefined;
  direction?: RelationDirection | undefined;
  types?: string[] | undefined;
  limit?: number | undefined;
}

export async function entryRelations(
  input: RelationsInput,
  { memory, access }: OperationScope,
): Promise<{ key: string; namespace: string; relations: Relation[] }> {
  const namespace = resolveNamespace(access, input.namespace);
  const relations = await memory.relations(input.key, {
    namespace,
    ...(input.direction === undefined ? {} : { direction: input.direction }),
    ...(input.types === undefined ? {} : { types: input.types }),
    ...(input.limit === undefined ? {} : { limit: input.limit }),
  });
  return { key: input.key, namespace, relations };
}
