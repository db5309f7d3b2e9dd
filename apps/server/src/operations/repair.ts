import type { MemoryEntry } from "@memory/api";
import { resolveNamespace } from "../access.js";
import { HttpError } from "../http-error.js";
import { type OperationScope, withoutEmbeddings } from "./operation-scope.js";

// Repair of conflict decisions and the history of a key, for every channel (HTTP, MCP): the
// library validates keys and states (unsupersede's NOT_FOUND / CONFLICT); this layer adds the
// namespace scope and what a person or an agent correcting a decision needs to be told.

function missing(key: string, namespace: string, hint: string): HttpError {
  return new HttpError(
    "NOT_FOUND",
    `No entry with key ${JSON.stringify(key)} in namespace ${JSON.stringify(namespace)}: ${hint}`,
  );
}

export interface SupersedeInput {
  oldKey: string;
  newKey: string;
  namespace?: string | undefined;
}

export interface SupersedeResult {
  superseded: true;
  /** The older entry, now superseded by `newKey` (its text is kept). */
  entry: MemoryEntry;
  /** The entry that replaces it. */
  replacedBy: MemoryEntry;
}

/**
 * Marks `oldKey` superseded by `newKey`. Both must exist (NOT_FOUND otherwise, nothing changed):
 * a correction that points at a key that is not there would hide a fact behind nothing.
 */
export async function supersedeEntry(
  input: SupersedeInput,
  { memory, access }: OperationScope,
): Promise<SupersedeResult> {
  const namespace = resolveNamespace(access, input.namespace);
  const [old, newer] = await Promise.all([
    memory.get(input.oldKey, { namespace }),
    memory.get(input.newKey, { namespace }),
  ]);
  if (!old) throw missing(input.oldKey, namespace, "nothing to supersede; check oldKey.");
  if (!newer) {
    throw missing(
      input.newKey,
      namespace,
      "store the newer entry first, then supersede the old one by its key.",
    );
  }
  // Self-supersession and version keys are refused by the library with INVALID_INPUT.
  const done = await memory.markSuperseded(input.oldKey, input.newKey, { namespace });
  if (!done) throw missing(input.oldKey, namespace, "it was deleted meanwhile.");
  const entry = { ...old, supersededBy: input.newKey };
  return {
    superseded: true,
    entry: withoutEmbeddings([entry])[0]!,
    replacedBy: withoutEmbeddings([newer])[0]!,
  };
}

/** Makes a superseded entry current again (NOT_FOUND, CONFLICT: see `Memory.unsupersede`). */
export async function unsupersedeEntry(
  input: { key: string; namespace?: string | undefined },
  { memory, access }: OperationScope,
): Promise<MemoryEntry> {
  const namespace = resolveNamespace(access, input.namespace);
  return memory.unsupersede(input.key, { namespace });
}

/** The versions of a key, newest first; NOT_FOUND when there is neither entry nor version. */
export async function entryHistory(
  input: { key: string; namespace?: string | undefined },
  { memory, access }: OperationScope,
): Promise<MemoryEntry[]> {
  const namespace = resolveNamespace(access, input.namespace);
  const versions = await memory.history(input.key, { namespace });
  if (versions.length === 0) {
    throw missing(input.key, namespace, "no entry and no kept version; check the key.");
  }
  return withoutEmbeddings(versions);
}
