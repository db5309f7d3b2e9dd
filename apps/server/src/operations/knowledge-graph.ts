import { type KnowledgeGraph, knowledgeGraph } from "@memory/lifecycle";
import { resolveNamespace } from "../access.js";
import type { OperationScope } from "./operation-scope.js";

// The knowledge graph for every channel (HTTP, MCP): the library validates the entity and the
// time (INVALID_INPUT); this layer only applies the token's namespace scope.

export interface KnowledgeGraphInput {
  entity: string;
  asOf?: string | undefined;
  namespace?: string | undefined;
}

export async function entityKnowledgeGraph(
  input: KnowledgeGraphInput,
  { memory, access }: OperationScope,
): Promise<KnowledgeGraph> {
  const namespace = resolveNamespace(access, input.namespace);
  return knowledgeGraph(memory, input.entity, {
    namespace,
    ...(input.asOf === undefined ? {} : { asOf: input.asOf }),
  });
}
