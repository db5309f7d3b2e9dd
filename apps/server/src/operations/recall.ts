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
  includeSnoozed?: boolean | undefined;
  /** false: no usage events and no recallId (a person browsing, not an agent). */
  track?: boolean | undefined;
  withEmbeddings?: boolean | undefined;
  collections?: boolean | string[] | undefined;
  /** `"full"`: `recallWithTrace` returns the trace too. */
  explain?: "full" | undefined;
  /** With `explain`: one key to explain. */
  key?: string | undefined;
}

export interface RecalledEntries {
  results: MemoryEntry[];
  /** For `feedback`; absent when the recall was not tracked (docs/usage.md). */
  recallId?: string;
}

/** The best entries for a query, best first, each with score and explain, and the recallId. */
export async function recallEntries(
  input: RecallInput,
  { memory, access, signal }: OperationScope,
): Promise<RecalledEntries> {
  const { query, namespace: requested, explain: _explain, key: _key, ...options } = input;
  const namespace = resolveNamespace(access, requested);
  const found = await memory.recall(
    query,
    defined({ ...options, limit: options.limit ?? RECALL_DEFAULT_LIMIT, namespace, signal }),
  );
  // Read before mapping: the recallId rides on the array, which withoutEmbeddings replaces.
  const { recallId } = found;
  const results = withoutEmbeddings(found, options.withEmbeddings);
  return recallId === undefined ? { results } : { results, recallId };
}

/**
 * `POST /v1/recall` (and `memory_recall`): the results, and with `explain: "full"` the trace
 * (`Memory.explainRecall`) whose results they are. The namespace is the token's to use, as for
 * any recall; the trace names only entries of that namespace.
 */
export async function recallWithTrace(
  input: RecallInput,
  scope: OperationScope,
): Promise<RecalledEntries & { trace?: RecallTrace }> {
  if (input.explain !== "full") {
    if (input.key !== undefined)
      throw new InvalidInputError(
        'key explains one entry of a traced recall: add explain: "full" (or leave key out).',
      );
    return recallEntries(input, scope);
  }
  // A traced recall is a look at the ranking, not a use of memory: it records nothing and
  // answers no recallId.
  const { query, namespace: requested, explain: _explain, track: _track, ...options } = input;
  const namespace = resolveNamespace(scope.access, requested);
  const trace = await scope.memory.explainRecall(
    query,
    defined({
      ...options,
      limit: options.limit ?? RECALL_DEFAULT_LIMIT,
      namespace,
      track: false,
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
  /** false: the entries shown are not recorded and there is no recallId. */
  track?: boolean | undefined;
  /** `"full"`: the response has `trace`, why each entry is or is not in the block. */
  explain?: "full" | undefined;
}

export interface BuiltContext {
  /** The "[Memory context]" block, or "" when nothing was found. */
  context: string;
  entries: MemoryEntry[];
  truncated: boolean;
  /** For `feedback`, when the context recorded what it showed (docs/usage.md). */
  recallId?: string;
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
      // A traced context is a look at the choice, not a use of memory (as a traced recall).
      ...(options.explain === "full" ? { track: false } : {}),
      namespace,
      signal: scope.signal,
    }),
  );
  const { recallId } = built;
  return {
    context: built.text,
    entries: withoutEmbeddings(built.entries),
    truncated: built.truncated,
    ...(recallId === undefined ? {} : { recallId }),
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
