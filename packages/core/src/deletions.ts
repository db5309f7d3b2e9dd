import {
  assertNotCollectionKey,
  assertNotVersionKey,
  type DeleteFilter,
  type DeleteReport,
  type DeleteWhere,
  InvalidInputError,
  type KeyOptions,
  normalizeDeleteFilter,
  nowIso,
  validateKey,
  validateNamespace,
  validateSessionId,
} from "@memory/api";
import { manualSupersessionRecord } from "./conflicts/decision-record.js";
import type { FacadeContext } from "./facade-context.js";
import { versionsToForget } from "./key-history.js";

/** Everything of a namespace (or of all), no floor, no other condition. */
function everything(namespace: string | undefined): DeleteWhere {
  return {
    namespace,
    categories: undefined,
    olderThan: undefined,
    superseded: undefined,
    keepNewest: 0,
    dryRun: false,
  };
}

export async function forgetEntry(
  context: FacadeContext,
  key: string,
  options: KeyOptions,
): Promise<boolean> {
  const namespace = validateNamespace(options.namespace);
  const name = validateKey(key);
  assertNotCollectionKey(name, "forget");
  // Forgetting a fact forgets what it used to say too: its kept versions go in the same batch.
  const versions = await versionsToForget(context, namespace, name);
  const result = await context.driver.write({
    upserts: [],
    supersessions: [],
    deletes: [{ namespace, key: name }, ...versions],
  });
  if (result.deleted.some(Boolean)) context.written(namespace);
  return result.deleted[0] === true;
}

export async function purgeNamespace(context: FacadeContext, namespace: string): Promise<number> {
  const name = validateNamespace(namespace);
  const report = await context.driver.deleteWhere(everything(name));
  if (report.deleted > 0) context.written(name);
  return report.deleted;
}

export async function purgeSession(
  context: FacadeContext,
  sessionId: string,
  options: KeyOptions,
): Promise<number> {
  const session = validateSessionId(sessionId);
  const namespace =
    options.namespace === undefined ? undefined : validateNamespace(options.namespace);
  const report = await context.driver.deleteWhere({ ...everything(namespace), sessionId: session });
  if (report.deleted > 0) context.written(namespace);
  return report.deleted;
}

/** The one wording, checked before the store is looked at (invalid whatever it holds). */
export function assertNotSelfSupersession(oldKey: string, newKey: string): void {
  if (oldKey === newKey) {
    throw new InvalidInputError(
      `An entry cannot supersede itself (${JSON.stringify(oldKey)}): pass the key of the newer entry as newKey.`,
    );
  }
}

export async function markSuperseded(
  context: FacadeContext,
  oldKey: string,
  newKey: string,
  options: KeyOptions,
): Promise<boolean> {
  const namespace = validateNamespace(options.namespace);
  const old = validateKey(oldKey);
  const newer = validateKey(newKey);
  assertNotSelfSupersession(old, newer);
  // Versions belong to their key's history: only store makes and replaces them.
  assertNotVersionKey(old, "oldKey");
  assertNotVersionKey(newer, "newKey");
  assertNotCollectionKey(old, "mark superseded");
  const result = await context.driver.write({
    upserts: [],
    supersessions: [
      {
        namespace,
        key: old,
        supersededBy: newer,
        record: manualSupersessionRecord(newer, nowIso()),
      },
    ],
    deletes: [],
  });
  if (result.superseded[0]) context.written(namespace);
  return result.superseded[0] === true;
}

export async function deleteEntries(
  context: FacadeContext,
  filter: DeleteFilter,
): Promise<DeleteReport> {
  const normalized = normalizeDeleteFilter(filter);
  const report = await context.driver.deleteWhere(normalized);
  if (!normalized.dryRun && report.deleted > 0) context.written(normalized.namespace);
  return report;
}
