import {
  assertNotVersionKey,
  ConflictError,
  type KeyOptions,
  type MemoryEntry,
  NotFoundError,
  validateKey,
  validateNamespace,
} from "@memory/api";
import type { FacadeContext } from "./facade-context.js";

function notFound(key: string, namespace: string): NotFoundError {
  return new NotFoundError(
    `No entry with key ${JSON.stringify(key)} in namespace ${JSON.stringify(namespace)}: nothing to restore. Check the key with \`memory list --include-superseded\`.`,
  );
}

/**
 * Makes a superseded entry current again: one supersession with `supersededBy: null` in one write
 * batch. Refused, before anything is written, for a missing entry (NOT_FOUND), a current one
 * (CONFLICT) and a kept version's key (INVALID_INPUT: a version comes back by storing its
 * content under its key, which keeps the current content as a version in turn).
 */
export async function unsupersedeEntry(
  context: FacadeContext,
  key: string,
  options: KeyOptions,
): Promise<MemoryEntry> {
  const namespace = validateNamespace(options.namespace);
  const name = validateKey(key);
  assertNotVersionKey(name);
  const [entry] = await context.driver.read([{ namespace, key: name }]);
  if (!entry) throw notFound(name, namespace);
  if (entry.supersededBy === undefined) {
    throw new ConflictError(
      `The entry ${JSON.stringify(name)} in namespace ${JSON.stringify(namespace)} is not superseded: it is already current, so there is nothing to restore.`,
    );
  }
  const result = await context.driver.write({
    upserts: [],
    supersessions: [{ namespace, key: name, supersededBy: null }],
    deletes: [],
  });
  // Forgotten between the read and the write (another process).
  if (!result.superseded[0]) throw notFound(name, namespace);
  context.written(namespace);
  // The batch also removed why it was superseded (its `supersessionRecord`).
  const { supersededBy: _previous, supersessionRecord: _why, ...restored } = entry;
  return restored;
}
