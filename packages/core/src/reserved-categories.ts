import type { Category } from "@memory/api";

/**
 * Categories whose entries are records for a tool, not memories for a reader: knowledge-graph
 * `triple` entries (docs/knowledge-graph.md) and `entity` entries (docs/entities.md). Recall (and so the memory context) leaves them out
 * unless the caller names them in `categories`; `get`, `list`, `count`, `export` and `migrate`
 * see them like any entry, so they are backed up, moved and purged with the namespace.
 * The one place this rule lives: add a category here, and recall leaves it out everywhere.
 */
export const RESERVED_CATEGORIES: ReadonlySet<Category> = new Set(["triple", "entity"]);

/** The category of knowledge-graph triples (`@memory/lifecycle` knowledgeGraph). */
export const TRIPLE_CATEGORY = "triple";

/** What recall leaves out: the reserved categories, unless `categories` is given (then it decides). */
export function recallExclusions(
  categories: readonly Category[] | undefined,
): Category[] | undefined {
  return categories !== undefined && categories.length > 0 ? undefined : [...RESERVED_CATEGORIES];
}
