import { type KeyOptions, validateKey, validateNamespace, validateSessionId } from "@memory/api";
import type { Opened } from "./opened-store.js";

/** Runs one DELETE, then drops the deleted rows from the vector index and the recall cache. */
function deleteEntries(opened: Opened, sql: string, params: unknown[], namespace?: string): number {
  const rows = opened.connection.db
    .transaction(
      () => opened.statements.get(`${sql} RETURNING doc_id`).all(...params) as { doc_id: number }[],
    )
    .immediate();
  opened.vectors.removed(rows.map((row) => row.doc_id));
  opened.invalidate(namespace);
  return rows.length;
}

export function forgetEntry(opened: Opened, key: string, options: KeyOptions): boolean {
  const namespace = validateNamespace(options.namespace);
  return (
    deleteEntries(
      opened,
      "DELETE FROM memories WHERE namespace = ? AND key = ?",
      [namespace, validateKey(key)],
      namespace,
    ) > 0
  );
}

export function purgeNamespaceEntries(opened: Opened, namespace: string): number {
  const valid = validateNamespace(namespace);
  return deleteEntries(opened, "DELETE FROM memories WHERE namespace = ?", [valid], valid);
}

export function purgeSessionEntries(
  opened: Opened,
  sessionId: string,
  options: KeyOptions,
): number {
  const session = validateSessionId(sessionId);
  if (options.namespace === undefined)
    return deleteEntries(opened, "DELETE FROM memories WHERE session_id = ?", [session]);
  const namespace = validateNamespace(options.namespace);
  return deleteEntries(
    opened,
    "DELETE FROM memories WHERE session_id = ? AND namespace = ?",
    [session, namespace],
    namespace,
  );
}
