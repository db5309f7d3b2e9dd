import type { MemoryEntry } from "@memory/api";
import { contentKey } from "@memory/core";
import { resolveNamespace } from "../access.js";
import { defined } from "../defined.js";
import { HttpError } from "../http-error.js";
import {
  type FilterInput,
  filterFrom,
  type OperationScope,
  withoutEmbeddings,
} from "./operation-scope.js";

/** Top core entries when the caller gives no limit (`GET /v1/core`). */
export const TOP_CORE_DEFAULT_LIMIT = 10;

export interface StoreInput {
  /** Without a key, the one `memory store` derives: the same text stays one memory. */
  key?: string | undefined;
  content: string;
  category?: string | undefined;
  namespace?: string | undefined;
  sessionId?: string | undefined;
  importance?: number | undefined;
  embedding?: number[] | undefined;
}

export async function storeEntry(input: StoreInput, scope: OperationScope): Promise<MemoryEntry> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  const key = input.key ?? contentKey(input.content);
  return scope.memory.store(defined({ ...input, key, namespace }));
}

export interface KeyInput {
  key: string;
  namespace?: string | undefined;
}

/** One entry by key, or undefined when there is none. */
export async function findEntry(
  input: KeyInput & { withEmbedding?: boolean | undefined },
  scope: OperationScope,
): Promise<MemoryEntry | undefined> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  const entry = await scope.memory.get(
    input.key,
    defined({ namespace, withEmbedding: input.withEmbedding }),
  );
  return entry ? withoutEmbeddings([entry], input.withEmbedding)[0] : undefined;
}

/** One entry by key; NOT_FOUND when there is none. */
export async function getEntry(
  input: KeyInput & { withEmbedding?: boolean | undefined },
  scope: OperationScope,
): Promise<MemoryEntry> {
  const entry = await findEntry(input, scope);
  if (entry) return entry;
  const namespace = resolveNamespace(scope.access, input.namespace);
  throw new HttpError("NOT_FOUND", `No entry with key "${input.key}" in namespace "${namespace}".`);
}

/** Deletes one entry; false when the key did not exist. */
export async function forgetEntry(input: KeyInput, scope: OperationScope): Promise<boolean> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  return scope.memory.forget(input.key, { namespace });
}

export interface ListInput extends FilterInput {
  namespace?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  withEmbeddings?: boolean | undefined;
}

/** Entries, newest first. */
export async function listEntries(input: ListInput, scope: OperationScope): Promise<MemoryEntry[]> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  const entries = await scope.memory.list(
    defined({
      ...filterFrom(input),
      namespace,
      limit: input.limit,
      offset: input.offset,
      withEmbeddings: input.withEmbeddings,
    }),
  );
  return withoutEmbeddings(entries, input.withEmbeddings);
}

export async function countEntries(
  input: FilterInput & { namespace?: string | undefined },
  scope: OperationScope,
): Promise<number> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  return scope.memory.count({ ...filterFrom(input), namespace });
}

export async function topCoreEntries(
  input: { namespace?: string | undefined; limit?: number | undefined },
  scope: OperationScope,
): Promise<MemoryEntry[]> {
  const namespace = resolveNamespace(scope.access, input.namespace);
  const entries = await scope.memory.topCore(input.limit ?? TOP_CORE_DEFAULT_LIMIT, { namespace });
  return withoutEmbeddings(entries);
}
