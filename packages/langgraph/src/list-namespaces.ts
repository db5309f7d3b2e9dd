import type { ListNamespacesOperation, MatchCondition } from "@langchain/langgraph";
import { InvalidInputError } from "@memory/api";
import { compareLabels, entriesUnder, type ReadContext } from "./store-reads.js";

/**
 * LangGraph's `listNamespaces`: the namespaces that hold at least one entry, kept when they
 * match every condition (`prefix` / `suffix` paths, `*` matching any one label), cut to
 * `maxDepth` labels (then deduplicated), sorted label by label, then `offset` and `limit`.
 */
export async function listNamespaces(
  context: ReadContext,
  query: NamespaceQuery,
  offset: number,
  limit: number,
): Promise<string[][]> {
  const { conditions, maxDepth } = query;
  const seen = new Map<string, string[]>();
  for await (const { entry, namespace } of entriesUnder(
    context,
    context.mapping.encodePrefix([]),
  )) {
    if (seen.has(entry.namespace)) continue;
    seen.set(entry.namespace, namespace);
  }
  const kept = new Map<string, string[]>();
  for (const namespace of seen.values()) {
    if (!conditions.every((condition) => matches(condition, namespace))) continue;
    const cut = maxDepth === undefined ? namespace : namespace.slice(0, maxDepth);
    kept.set(JSON.stringify(cut), cut);
  }
  return [...kept.values()].sort(compareLabels).slice(offset, offset + limit);
}

/** The checked conditions of a `listNamespaces` operation. */
export interface NamespaceQuery {
  conditions: MatchCondition[];
  maxDepth: number | undefined;
}

/** Checks a `listNamespaces` operation (before any operation of its batch runs). */
export function namespaceQuery(operation: ListNamespacesOperation): NamespaceQuery {
  const conditions = operation.matchConditions ?? [];
  if (!Array.isArray(conditions)) {
    throw new InvalidInputError("listNamespaces matchConditions must be an array.");
  }
  for (const condition of conditions) checkCondition(condition);
  const maxDepth = operation.maxDepth;
  if (maxDepth !== undefined && !(Number.isInteger(maxDepth) && maxDepth > 0)) {
    throw new InvalidInputError(`maxDepth must be an integer >= 1, got ${maxDepth}.`);
  }
  return { conditions, maxDepth };
}

function matches({ matchType, path }: MatchCondition, namespace: readonly string[]): boolean {
  if (path.length > namespace.length) return false;
  const start = matchType === "prefix" ? 0 : namespace.length - path.length;
  return path.every((label, index) => label === "*" || namespace[start + index] === label);
}

function checkCondition(condition: MatchCondition): void {
  const { matchType, path } = condition ?? {};
  if (matchType !== "prefix" && matchType !== "suffix") {
    throw new InvalidInputError(
      `listNamespaces match type ${JSON.stringify(matchType)} is not supported; use "prefix" or "suffix".`,
    );
  }
  if (!Array.isArray(path) || !path.every((label) => typeof label === "string")) {
    throw new InvalidInputError(
      `listNamespaces ${matchType} must be an array of labels (or "*"), got ${JSON.stringify(path)}.`,
    );
  }
}
