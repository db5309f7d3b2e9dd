import type { MemoryEntry, SearchMode } from "@memory/api";
import { buildMemoryContext } from "@memory/lifecycle";
import { RECALL_DEFAULT_LIMIT } from "@memory/tools";
import { resolveNamespace } from "../access.js";
import { defined } from "../defined.js";
import {
  type OperationScope,
  type OperationSettings,
  withoutEmbeddings,
} from "./operation-scope.js";

export interface RecallInput {
  query: string;
  limit?: number | undefined;
  namespace?: string | undefined;
  sessionId?: string | undefined;
  categories?: string[] | undefined;
  since?: string | undefined;
  until?: string | undefined;
  mode?: SearchMode | undefined;
  minScore?: number | undefined;
  includeSuperseded?: boolean | undefined;
  withEmbeddings?: boolean | undefined;
  collections?: boolean | string[] | undefined;
}

/** The best entries for a query, best first, each with score and explain. */
export async function recallEntries(
  input: RecallInput,
  { memory, access, signal }: OperationScope,
): Promise<MemoryEntry[]> {
  const { query, namespace: requested, ...options } = input;
  const namespace = resolveNamespace(access, requested);
  const results = await memory.recall(
    query,
    defined({ ...options, limit: options.limit ?? RECALL_DEFAULT_LIMIT, namespace, signal }),
  );
  return withoutEmbeddings(results, options.withEmbeddings);
}

export interface ContextInput {
  message: string;
  namespace?: string | undefined;
  sessionId?: string | undefined;
  limit?: number | undefined;
  minScore?: number | undefined;
  coreLimit?: number | undefined;
  includeConversation?: boolean | undefined;
  maxChars?: number | undefined;
}

export interface BuiltContext {
  /** The "[Memory context]" block, or "" when nothing was found. */
  context: string;
  entries: MemoryEntry[];
  truncated: boolean;
}

/** The [Memory context] block for a user message: memory.toml's auto_recall* under the input. */
export async function buildContext(
  input: ContextInput,
  scope: OperationScope & Pick<OperationSettings, "contextDefaults">,
): Promise<BuiltContext> {
  const { message, namespace: requested, ...options } = input;
  const namespace = resolveNamespace(scope.access, requested);
  const built = await buildMemoryContext(
    scope.memory,
    message,
    defined({
      ...scope.contextDefaults,
      ...defined(options),
      namespace,
      signal: scope.signal,
    }),
  );
  return {
    context: built.text,
    entries: withoutEmbeddings(built.entries),
    truncated: built.truncated,
  };
}
