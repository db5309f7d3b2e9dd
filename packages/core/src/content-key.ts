import { createHash } from "node:crypto";

/**
 * A key derived from the content (`mem-` + 16 hex digits of its SHA-256): storing the same text
 * twice updates one entry instead of creating a duplicate. `memory store` without `--key`, the
 * MCP `memory_store` tool without `key` and consolidation's promoted core entries all use it.
 */
export function contentKey(content: string): string {
  return `mem-${createHash("sha256").update(content).digest("hex").slice(0, 16)}`;
}
