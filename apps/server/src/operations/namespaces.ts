import { resolveNamespace, visibleNamespaces } from "../access.js";
import { type NamespaceSummary, namespaceSummaries } from "../namespace-summaries.js";
import type { OperationScope } from "./operation-scope.js";

/** The namespaces the caller may use, with entry counts per category. */
export async function listNamespaces({
  memory,
  access,
}: OperationScope): Promise<NamespaceSummary[]> {
  return namespaceSummaries(memory, access);
}

/** Deletes every entry of a namespace; how many were deleted. */
export async function purgeNamespace(
  input: { namespace: string },
  { memory, access }: OperationScope,
): Promise<number> {
  return memory.purgeNamespace(resolveNamespace(access, input.namespace));
}

/**
 * Deletes every entry of a session; how many were deleted. Without a namespace, in every
 * namespace the caller may use.
 */
export async function purgeSession(
  input: { sessionId: string; namespace?: string | undefined },
  { memory, access }: OperationScope,
): Promise<number> {
  if (input.namespace !== undefined) {
    const namespace = resolveNamespace(access, input.namespace);
    return memory.purgeSession(input.sessionId, { namespace });
  }
  const visible = visibleNamespaces(access);
  if (visible === undefined) return memory.purgeSession(input.sessionId);
  let deleted = 0;
  for (const namespace of visible)
    deleted += await memory.purgeSession(input.sessionId, { namespace });
  return deleted;
}
