import {
  InvalidInputError,
  type MemoryEntry,
  type RecallTrace,
  type SearchMode,
} from "@memory/api";
import { buildMemoryContext, type MemoryContextTrace } from "@memory/lifecycle";
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
  /** `"full"`: `recallWithTrace` returns the trace too. */
  explain?: "full" | undefined;
  /** With `explain`: one key to explain. */
  key?: string | undefined;
}

/** The best entries for a query, best first, each with score and explain. */
export async function recallEntries(
  input: RecallInput,
  { memory, access, signal }: OperationScope,
): Promise<MemoryEntry[]> {
  const { query, namespace: requested, explain: _explain, key: _key, ...options } = input;
  const namespace = resolveNamespace(access, requested);
  const results = await memory.recall(
    query,
    defined({ ...options, limit: options.limit ?? RECALL_DEFAULT_LIMIT, namespace, signal }),
  );
  return withoutEmbeddings(results, options.withEmbeddings);
}

/**
 * `POST /v1/recall` (and `memory_recall`): the results, and with `explain: "full"` the trace
 * (`Memory.explainRecall`) whose results they are. The namespace is the token's to use, as for
 * any recall; the trace names only entries of that namespace.
 */
export async function recallWithTrace(
  input: RecallInput,
  scope: OperationScope,
): Promise<{ results: MemoryEntry[]; trace?: RecallTrace }> {
  if (input.explain !== "full") {
    if (input.key !== undefined)
      throw new InvalidInputError(
        'key explains one entry of a traced recall: add explain: "full" (or leave key out).',
      );
    return { results: await recallEntries(input, scope) };
  }
  const { query, namespace: requested, explain: _explain, ...options } = input;
  const namespace = resolveNamespace(scope.access, requested);
  const trace = await scope.memory.explainRecall(
    query,
    defined({
      ...options,
      limit: options.limit ?? RECALL_DEFAULT_LIMIT,
      namespace,
      signal: scope.signal,
    }),
  );
  const results = withoutEmbeddings(trace.results, options.withEmbeddings);
  return { results, trace: { ...trace, results } };
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
  /** `"full"`: the response has `trace`, why each entry is or is not in the block. */
  explain?: "full" | undefined;
}

export interface BuiltContext {
  /** The "[Memory context]" block, or "" when nothing was found. */
  context: string;
  entries: MemoryEntry[];
  truncated: boolean;
  trace?: MemoryContextTrace;
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
    ...(built.trace ? { trace: withoutTraceEmbeddings(built.trace) } : {}),
  };
}

/** A context trace's recall results without embeddings (they are never asked for there). */
function withoutTraceEmbeddings(trace: MemoryContextTrace): MemoryContextTrace {
  return {
    ...trace,
    recalls: trace.recalls.map(({ purpose, trace: recall }) => ({
      purpose,
      trace: { ...recall, results: withoutEmbeddings(recall.results) },
    })),
  };
}
