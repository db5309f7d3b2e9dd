import type { MemoryEntry } from "@memory/api";
import { resolveNamespace } from "../access.js";
import { HttpError } from "../http-error.js";
import { type OperationScope, withoutEmbeddings } from "./operation-scope.js";

// Bounds of the supersession chain walk: chains are short in practice; these only stop a loop.
const MAX_CHAIN = 50;
const MAX_REPLACED = 200;

export interface SupersessionChain {
  entry: MemoryEntry;
  /** Entries this one superseded, directly or through others, nearest first. */
  replaced: MemoryEntry[];
  /** The entries that replaced this one, in order (follows supersededBy). */
  replacedBy: MemoryEntry[];
}

/**
 * One entry with what it replaced and what replaced it. Forward is a walk along `supersededBy`
 * (one get per step). Backward needs the entries pointing at a key, which the contract cannot
 * select, so one streamed pass over the namespace keeps only the superseded entries.
 */
export async function supersessionChain(
  input: { key: string; namespace?: string | undefined },
  { memory, access }: OperationScope,
): Promise<SupersessionChain> {
  const namespace = resolveNamespace(access, input.namespace);
  const { key } = input;
  const entry = await memory.get(key, { namespace });
  if (!entry)
    throw new HttpError("NOT_FOUND", `No entry with key "${key}" in namespace "${namespace}".`);
  const seen = new Set([key]);
  const replacedBy: MemoryEntry[] = [];
  let next = entry.supersededBy;
  while (next !== undefined && !seen.has(next) && replacedBy.length < MAX_CHAIN) {
    seen.add(next);
    const newer = await memory.get(next, { namespace });
    if (!newer) break;
    replacedBy.push(newer);
    next = newer.supersededBy;
  }
  const pointingAt = new Map<string, MemoryEntry[]>();
  for await (const candidate of memory.export({ namespace, includeSuperseded: true })) {
    if (candidate.supersededBy === undefined) continue;
    const list = pointingAt.get(candidate.supersededBy) ?? [];
    list.push(candidate);
    pointingAt.set(candidate.supersededBy, list);
  }
  const replaced: MemoryEntry[] = [];
  let frontier = [key];
  while (frontier.length > 0 && replaced.length < MAX_REPLACED) {
    const older: string[] = [];
    for (const target of frontier) {
      for (const candidate of pointingAt.get(target) ?? []) {
        if (seen.has(candidate.key)) continue;
        seen.add(candidate.key);
        replaced.push(candidate);
        older.push(candidate.key);
      }
    }
    frontier = older;
  }
  return {
    entry,
    replaced: withoutEmbeddings(replaced.slice(0, MAX_REPLACED)),
    replacedBy: withoutEmbeddings(replacedBy),
  };
}
