import type { Item } from "@langchain/langgraph";
import { isVersionKey, type Memory, type MemoryEntry, type SearchMode } from "@memory/api";
import { decodeContent, type ItemValue } from "./item-content.js";
import { isUnderPrefix, type NamespaceMapping } from "./namespace-mapping.js";

/** A search result: an item with its recall score (no score without a query). */
export type SearchItem = Item & { score?: number };

/** What the read operations need from the store. */
export interface ReadContext {
  memory: Memory;
  mapping: NamespaceMapping;
  searchMode: SearchMode | undefined;
  minScore: number | undefined;
}

// `Memory.recall` caps a limit at 10,000.
const MAX_RECALL_LIMIT = 10_000;

/** The value an entry holds; entries stored by other programs read as `{ text: content }`. */
function itemValue(entry: MemoryEntry): ItemValue {
  return decodeContent(entry.content);
}

/** The item an entry holds, in the LangGraph namespace `namespace`. */
export function toItem(entry: MemoryEntry, namespace: string[]): Item {
  return {
    value: itemValue(entry),
    key: entry.key,
    namespace,
    createdAt: new Date(entry.createdAt),
    updatedAt: new Date(entry.updatedAt),
  };
}

/**
 * Every entry of the store's namespaces under `prefix`, with its namespace tuple. The `Memory`
 * interface has no namespace index, so this streams the whole store once (`export`, which never
 * holds it all in memory); searches and namespace listings cost one pass over the entries.
 */
export async function* entriesUnder(
  context: ReadContext,
  prefix: string | undefined,
): AsyncGenerator<{ entry: MemoryEntry; namespace: string[] }> {
  for await (const entry of context.memory.export()) {
    // The kept versions of a key (docs/history.md) are its history, not items of their own.
    if (isVersionKey(entry.key) || !isUnderPrefix(entry.namespace, prefix)) continue;
    const namespace = context.mapping.decode(entry.namespace);
    if (namespace !== undefined) yield { entry, namespace };
  }
}

/** A search without a query: the matching items, newest first (by `updatedAt`, then key). */
export async function searchRecent(
  context: ReadContext,
  prefix: string | undefined,
  accept: (value: ItemValue) => boolean,
  offset: number,
  limit: number,
): Promise<SearchItem[]> {
  const items: Item[] = [];
  for await (const { entry, namespace } of entriesUnder(context, prefix)) {
    const item = toItem(entry, namespace);
    if (accept(item.value)) items.push(item);
  }
  items.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || compareIdentity(a, b));
  return items.slice(offset, offset + limit);
}

/**
 * A search with a query: recall (with its calibrated scores) in each namespace under `prefix`,
 * the filter applied to every result before any limit (a namespace is asked again for four
 * times more until enough results pass or it has no more), then merged by score.
 */
export async function searchByQuery(
  context: ReadContext,
  prefix: string | undefined,
  query: string,
  accept: (value: ItemValue) => boolean,
  offset: number,
  limit: number,
): Promise<SearchItem[]> {
  const wanted = offset + limit;
  if (limit === 0) return [];
  const namespaces = new Map<string, string[]>();
  for await (const { entry, namespace } of entriesUnder(context, prefix)) {
    namespaces.set(entry.namespace, namespace);
  }
  const found: SearchItem[] = [];
  for (const [namespace, labels] of namespaces) {
    for (const item of await recallIn(context, namespace, query, accept, wanted)) {
      found.push({ ...toItem(item, labels), score: item.score });
    }
  }
  found.sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || compareIdentity(a, b));
  return found.slice(offset, wanted);
}

async function recallIn(
  context: ReadContext,
  namespace: string,
  query: string,
  accept: (value: ItemValue) => boolean,
  wanted: number,
): Promise<MemoryEntry[]> {
  let asked = Math.min(wanted, MAX_RECALL_LIMIT);
  for (;;) {
    const results = await context.memory.recall(query, {
      namespace,
      limit: asked,
      mode: context.searchMode,
      minScore: context.minScore,
      // A store's items are all live: conflict detection must not hide one from search.
      includeSuperseded: true,
    });
    const kept = results.filter((entry) => !isVersionKey(entry.key) && accept(itemValue(entry)));
    const exhausted = results.length < asked || asked >= MAX_RECALL_LIMIT;
    if (kept.length >= wanted || exhausted) return kept.slice(0, wanted);
    asked = Math.min(asked * 4, MAX_RECALL_LIMIT);
  }
}

function compareIdentity(a: Item, b: Item): number {
  return compareLabels(a.namespace, b.namespace) || compareText(a.key, b.key);
}

/** Label by label, by code unit (locale-independent), shorter first on a tie. */
export function compareLabels(a: readonly string[], b: readonly string[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const order = compareText(a[index] as string, b[index] as string);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
