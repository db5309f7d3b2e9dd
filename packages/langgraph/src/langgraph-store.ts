import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from "@langchain/langgraph";
import { assertNotVersionKey, InvalidInputError, validateContent, validateKey } from "@memory/api";
import { encodeContent } from "./item-content.js";
import {
  type LangGraphStoreOptions,
  type ResolvedLangGraphStoreOptions,
  resolveLangGraphStoreOptions,
} from "./langgraph-store-options.js";
import { listNamespaces, namespaceQuery } from "./list-namespaces.js";
import { NamespaceMapping } from "./namespace-mapping.js";
import { type ReadContext, searchByQuery, searchRecent, toItem } from "./store-reads.js";
import { compileFilter } from "./value-filter.js";

// LangGraph's own defaults for a search and a namespace listing without a limit.
const DEFAULT_SEARCH_LIMIT = 10;
const DEFAULT_LIST_LIMIT = 100;

/** One checked operation, ready to run. */
type PlannedOperation = () => Promise<unknown>;

/**
 * A LangGraph.js `BaseStore` over any `Memory`: an item is one entry, identified by
 * (namespace, key), whose content holds the recall text and the JSON value (see
 * `item-content.ts`); tuple namespaces map to `a.b.c` (see `namespace-mapping.ts`).
 *
 * `batch` checks every operation first and runs none when one is invalid; then it runs them in
 * order, each seeing the writes before it. The store never closes the memory: close it yourself.
 */
export class LangGraphStore extends BaseStore {
  readonly #options: ResolvedLangGraphStoreOptions;
  readonly #mapping: NamespaceMapping;
  readonly #reads: ReadContext;

  constructor(options: LangGraphStoreOptions) {
    super();
    this.#options = resolveLangGraphStoreOptions(options);
    this.#mapping = new NamespaceMapping(this.#options.rootNamespace);
    this.#reads = {
      memory: this.#options.memory,
      mapping: this.#mapping,
      searchMode: this.#options.searchMode,
      minScore: this.#options.minScore,
    };
  }

  /** The namespace string a LangGraph namespace is stored under (what the CLI and MCP show). */
  namespaceOf(namespace: string[]): string {
    return this.#mapping.encode(namespace);
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    if (!Array.isArray(operations)) {
      throw new InvalidInputError("batch() needs an array of operations.");
    }
    const planned = operations.map((operation, index) => this.#plan(operation, index));
    const results: unknown[] = [];
    for (const run of planned) results.push(await run());
    return results as OperationResults<Op>;
  }

  #plan(operation: Operation, index: number): PlannedOperation {
    if (typeof operation !== "object" || operation === null) {
      throw new InvalidInputError(`batch operation ${index} is not an object.`);
    }
    if ("namespacePrefix" in operation) return this.#planSearch(operation);
    if ("value" in operation) return this.#planPut(operation);
    if ("namespace" in operation && "key" in operation) return this.#planGet(operation);
    if ("matchConditions" in operation || "limit" in operation || "maxDepth" in operation) {
      return this.#planListNamespaces(operation);
    }
    throw new InvalidInputError(
      `batch operation ${index} is not a get, put, search or listNamespaces operation.`,
    );
  }

  #planGet(operation: GetOperation): PlannedOperation {
    const namespace = this.#mapping.encode(operation.namespace);
    const key = validateKey(operation.key);
    const labels = [...operation.namespace];
    return async (): Promise<Item | null> => {
      const entry = await this.#options.memory.get(key, { namespace });
      return entry === null ? null : toItem(entry, labels);
    };
  }

  #planPut(operation: PutOperation): PlannedOperation {
    const namespace = this.#mapping.encode(operation.namespace);
    const key = validateKey(operation.key);
    const { memory, category, indexFields } = this.#options;
    if (operation.value === null) {
      return async () => {
        await memory.forget(key, { namespace });
      };
    }
    const index = operation.index;
    if (index !== undefined && index !== false && !Array.isArray(index)) {
      throw new InvalidInputError(
        `put index must be false or an array of paths, got ${JSON.stringify(index)}.`,
      );
    }
    // Refused while planning, as every bad input of a batch is: the key form of kept versions.
    assertNotVersionKey(key);
    const content = validateContent(encodeContent(operation.value, index ?? indexFields));
    return async () => {
      await memory.store({ key, namespace, content, category });
    };
  }

  #planSearch(operation: SearchOperation): PlannedOperation {
    const prefix = this.#mapping.encodePrefix(operation.namespacePrefix);
    const accept = compileFilter(operation.filter);
    const limit = count("limit", operation.limit, DEFAULT_SEARCH_LIMIT);
    const offset = count("offset", operation.offset, 0);
    const query = operation.query;
    if (query !== undefined && query !== null && typeof query !== "string") {
      throw new InvalidInputError(`search query must be a string, got ${typeof query}.`);
    }
    // LangGraph's stores read an empty query as none; so does a blank one here.
    if (typeof query === "string" && query.trim() !== "") {
      return () => searchByQuery(this.#reads, prefix, query, accept, offset, limit);
    }
    return () => searchRecent(this.#reads, prefix, accept, offset, limit);
  }

  #planListNamespaces(operation: ListNamespacesOperation): PlannedOperation {
    const limit = count("limit", operation.limit, DEFAULT_LIST_LIMIT);
    const offset = count("offset", operation.offset, 0);
    const query = namespaceQuery(operation);
    return () => listNamespaces(this.#reads, query, offset, limit);
  }
}

/** Creates a LangGraph store over `options.memory`; pass it to `graph.compile({ store })`. */
export function createLangGraphStore(options: LangGraphStoreOptions): LangGraphStore {
  return new LangGraphStore(options);
}

function count(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new InvalidInputError(`${name} must be an integer >= 0, got ${value}.`);
  }
  return value;
}
