import {
  type EntryKey,
  InvalidInputError,
  isCollectionKey,
  type MemoryEntry,
  validateNamespace,
} from "@memory/api";
import type { FacadeContext } from "../facade-context.js";

// Keys per driver read or write: one statement's worth on every backend.
const FRAGMENT_BATCH = 1000;

function identities(namespace: string, keys: readonly string[]): EntryKey[] {
  const checked = validateNamespace(namespace);
  for (const key of keys) {
    if (!isCollectionKey(key))
      throw new InvalidInputError(
        `${JSON.stringify(key)} is not a collection fragment's key: the collection writer only touches "collection:<name>:..." keys.`,
      );
  }
  return keys.map((key) => ({ namespace: checked, key }));
}

export async function readCollectionFragments(
  context: FacadeContext,
  namespace: string,
  keys: readonly string[],
): Promise<(MemoryEntry | undefined)[]> {
  const wanted = identities(namespace, keys);
  const found: (MemoryEntry | undefined)[] = [];
  for (let at = 0; at < wanted.length; at += FRAGMENT_BATCH)
    found.push(
      ...(await context.driver.read(wanted.slice(at, at + FRAGMENT_BATCH), {
        withEmbeddings: true,
      })),
    );
  return found;
}

export async function removeCollectionFragments(
  context: FacadeContext,
  namespace: string,
  keys: readonly string[],
): Promise<number> {
  const doomed = identities(namespace, keys);
  let removed = 0;
  try {
    for (let at = 0; at < doomed.length; at += FRAGMENT_BATCH) {
      context.assertOpen();
      const result = await context.driver.write({
        upserts: [],
        supersessions: [],
        deletes: doomed.slice(at, at + FRAGMENT_BATCH),
      });
      removed += result.deleted.filter(Boolean).length;
    }
  } finally {
    if (doomed.length > 0) context.written(doomed[0]!.namespace);
  }
  return removed;
}
