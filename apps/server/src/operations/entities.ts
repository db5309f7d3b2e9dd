import { type EntityReport, type EntitySummary, entityReport, listEntities } from "@memory/core";
import { resolveNamespace } from "../access.js";
import type { OperationScope } from "./operation-scope.js";

// Entities for every channel (HTTP, MCP): the library reads and answers with typed errors; this
// layer only applies the token's namespace scope.

export async function namespaceEntities(
  input: { namespace?: string | undefined; top?: number | undefined },
  { memory, access }: OperationScope,
): Promise<{ namespace: string; entities: EntitySummary[] }> {
  const namespace = resolveNamespace(access, input.namespace);
  const entities = await listEntities(memory, {
    namespace,
    ...(input.top === undefined ? {} : { top: input.top }),
  });
  return { namespace, entities };
}

export interface EntityInput {
  name: string;
  namespace?: string | undefined;
  limit?: number | undefined;
  includeSuperseded?: boolean | undefined;
}

export async function entityEntries(
  input: EntityInput,
  { memory, access }: OperationScope,
): Promise<EntityReport> {
  const namespace = resolveNamespace(access, input.namespace);
  return entityReport(memory, input.name, {
    namespace,
    ...(input.limit === undefined ? {} : { limit: input.limit }),
    ...(input.includeSuperseded === undefined
      ? {}
      : { includeSuperseded: input.includeSuperseded }),
  });
}
