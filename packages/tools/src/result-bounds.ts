/**
 * Bounds on what one tool result carries in a host that bounds results (the MCP server), so
 * that a result always fits the MCP SDK client's 10 MiB line limit on stdio with room to spare,
 * whatever is stored (contents reach 4,194,304 characters): at most RESULT_MAX_CHARS characters
 * of text in all, and in a list at most LIST_ENTRY_MAX_CHARS of one entry's content. They live
 * here because the descriptions a model reads (memory_get's) name them.
 */
export const RESULT_MAX_CHARS = 100_000;
export const LIST_ENTRY_MAX_CHARS = 4_000;
