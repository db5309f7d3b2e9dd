import {
  type CountOptions,
  type ExportFilter,
  type GetOptions,
  InvalidInputError,
  type KeyOptions,
  type ListOptions,
  type MemoryEntry,
  normalizeFilter,
  validateKey,
  validateLimit,
  validateNamespace,
} from "@memory/api";
import { baseImportance } from "./algorithms/importance.js";
import type { FacadeContext } from "./facade-context.js";
import { withOutgoingRelations } from "./relations/export-relations.js";
import { withUsage } from "./usage/usage-transfer.js";

/** `list` returns at most this many entries per call, whatever `limit` asks (page with `offset`). */
export const LIST_LIMIT_MAX = 1_000_000;
/** Entries per driver page of `export` (bounded memory whatever the store holds). */
export const EXPORT_PAGE = 500;
/** `topCore` default. */
export const TOP_CORE_DEFAULT = 10;

/** Validates `list`'s offset: an integer >= 0 (0 by default). */
export function validateOffset(offset: unknown): number {
  if (offset === undefined) return 0;
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
    throw new InvalidInputError(
      `offset must be an integer >= 0 (the number of entries to skip), got ${JSON.stringify(offset)}.`,
    );
  }
  return offset;
}

export async function getEntry(
  context: FacadeContext,
  key: string,
  options: GetOptions,
): Promise<MemoryEntry | null> {
  const namespace = validateNamespace(options.namespace);
  const [entry] = await context.driver.read([{ namespace, key: validateKey(key) }], {
    withEmbeddings: options.withEmbedding === true,
  });
  return entry ?? null;
}

export async function listEntries(
  context: FacadeContext,
  options: ListOptions,
): Promise<MemoryEntry[]> {
  const limit = validateLimit(options.limit, 100, LIST_LIMIT_MAX);
  const offset = validateOffset(options.offset);
  const filter = normalizeFilter(options);
  if (limit === 0) return [];
  const page = await context.driver.scan({
    filter,
    order: { by: "newest" },
    limit,
    offset,
    withEmbeddings: options.withEmbeddings === true,
  });
  return page.entries;
}

export async function countEntries(context: FacadeContext, options: CountOptions): Promise<number> {
  return context.driver.count(normalizeFilter(options));
}

/**
 * The most important current core entries of a namespace: importance descending, then the most
 * recently updated. An entry stored without an importance ranks at its category's base
 * importance (core: 0.7, as `computeImportance` starts from), not last: leaving importance unset
 * means "ordinary", not "unimportant".
 */
export async function topCoreEntries(
  context: FacadeContext,
  limit: number,
  options: KeyOptions,
): Promise<MemoryEntry[]> {
  const count = validateLimit(limit, TOP_CORE_DEFAULT);
  const namespace = validateNamespace(options.namespace);
  if (count === 0) return [];
  const page = await context.driver.scan({
    filter: {
      namespace,
      sessionId: undefined,
      categories: ["core"],
      since: undefined,
      until: undefined,
      includeSuperseded: false,
    },
    order: { by: "importance", unsetImportance: baseImportance("core") },
    limit: count,
  });
  return page.entries;
}

/** Every matching entry, oldest first, one driver page at a time. */
export async function* exportEntries(
  context: FacadeContext,
  filter: ExportFilter,
): AsyncIterable<MemoryEntry> {
  const normalized = normalizeFilter(filter, {
    allNamespacesByDefault: true,
    includeSupersededByDefault: true,
  });
  let after: unknown;
  for (;;) {
    context.assertOpen();
    const page = await context.driver.scan({
      filter: normalized,
      order: { by: "oldest" },
      limit: EXPORT_PAGE,
      ...(after === undefined ? {} : { after }),
      withEmbeddings: filter.withEmbeddings === true,
    });
    yield* await withUsage(context, await withOutgoingRelations(context.driver, page.entries));
    if (page.next === undefined) return;
    after = page.next;
  }
}
