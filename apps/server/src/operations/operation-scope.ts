import type { ChatModel, EntryFilter, Memory, MemoryEntry } from "@memory/api";
import type { Access } from "../access.js";
import type { TurnSettings } from "../agent-turns.js";
import { defined } from "../defined.js";
import type { CollectionSettings } from "./collections.js";

/**
 * What every operation runs against: the memory, the caller's scope (the namespaces its token
 * may use; stdio MCP gets full access) and the request's cancellation. HTTP routes and MCP tools
 * both build one and call the same operation, so a default or a scope rule lives once.
 */
export interface OperationScope {
  memory: Memory;
  access: Access;
  signal?: AbortSignal | undefined;
}

/** The server's settings from memory.toml that some operations apply. */
export interface OperationSettings {
  /** `auto_recall*`: defaults of the memory context (`POST /v1/context`, `memory_context`). */
  contextDefaults: { recall?: boolean; limit?: number; minScore?: number };
  /** `chat_provider`, resolved once at start; null without one (remember is UNSUPPORTED). */
  chatModel: ChatModel | null;
  /** `conflict_threshold` and `remember_retries` (consolidate, remember). */
  turnSettings: TurnSettings;
  /** memory.toml's collections and `[server].collection_roots`. */
  collections: CollectionSettings;
}

/**
 * Embeddings are large (hundreds of floats per entry) and only sent when asked for, whatever the
 * backend returns.
 */
export function withoutEmbeddings(
  entries: MemoryEntry[],
  keep: boolean | undefined = false,
): MemoryEntry[] {
  if (keep) return entries;
  return entries.map((entry) => {
    if (entry.embedding === undefined) return entry;
    const { embedding: _embedding, ...rest } = entry;
    return rest;
  });
}

/** The filter fields that list, count and export share. */
export interface FilterInput {
  sessionId?: string | undefined;
  categories?: string[] | undefined;
  since?: string | undefined;
  until?: string | undefined;
  includeSuperseded?: boolean | undefined;
}

export function filterFrom(input: FilterInput): EntryFilter {
  return defined({
    sessionId: input.sessionId,
    categories: input.categories,
    since: input.since,
    until: input.until,
    includeSuperseded: input.includeSuperseded,
  });
}
