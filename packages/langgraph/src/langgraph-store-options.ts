import {
  type Category,
  InvalidInputError,
  type Memory,
  type SearchMode,
  validateCategory,
} from "@memory/api";

/** Options of {@link createLangGraphStore}. */
export interface LangGraphStoreOptions {
  /** Any open `Memory` (SQLite, PostgreSQL, Markdown, ...). Never closed by the store. */
  memory: Memory;
  /**
   * A namespace put in front of every LangGraph namespace (`"agent-a"` stores `["users", "42"]`
   * as `agent-a.users.42`); only namespaces under it are seen. Default none: `users.42`.
   */
  rootNamespace?: string;
  /** Category of the entries the store writes. Default `core` (never decays, never pruned). */
  category?: Category;
  /**
   * Paths in each value whose text recall matches (`["text"]`, `["title", "chapters[*].body"]`);
   * a put's own `index` list wins, and `index: false` stores an item that only filters and
   * lists find. Default: every string in the value.
   */
  indexFields?: string[];
  /** Recall mode of searches with a query. Default the memory's (`hybrid`). */
  searchMode?: SearchMode;
  /** Searches with a query drop results scoring below this. Default the memory's `minScore` (0.3). */
  minScore?: number;
}

/** The options with defaults applied and every value checked. */
export interface ResolvedLangGraphStoreOptions {
  memory: Memory;
  rootNamespace: string | undefined;
  category: Category;
  indexFields: string[] | undefined;
  searchMode: SearchMode | undefined;
  minScore: number | undefined;
}

export function resolveLangGraphStoreOptions(
  options: LangGraphStoreOptions,
): ResolvedLangGraphStoreOptions {
  if (typeof options !== "object" || options === null || !isMemory(options.memory)) {
    throw new InvalidInputError(
      "createLangGraphStore needs { memory }: an open Memory, e.g. createSqliteMemory({ path }) from @memory/sqlite.",
    );
  }
  const { indexFields, minScore } = options;
  if (indexFields !== undefined && !isStringArray(indexFields)) {
    throw new InvalidInputError(
      'indexFields must be an array of paths like ["text", "meta.title"].',
    );
  }
  if (minScore !== undefined && !(typeof minScore === "number" && minScore >= 0 && minScore <= 1)) {
    throw new InvalidInputError(`minScore must be a number between 0 and 1, got ${minScore}.`);
  }
  return {
    memory: options.memory,
    rootNamespace: options.rootNamespace,
    category: options.category === undefined ? "core" : validateCategory(options.category),
    indexFields,
    searchMode: options.searchMode,
    minScore,
  };
}

function isMemory(value: unknown): value is Memory {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Memory).store === "function" &&
    typeof (value as Memory).recall === "function" &&
    typeof (value as Memory).export === "function"
  );
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((field) => typeof field === "string");
}
