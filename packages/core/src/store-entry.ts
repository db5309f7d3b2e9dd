import {
  assertNotCollectionKey,
  assertNotVersionKey,
  type ConflictDecision,
  type EntryRecord,
  type MemoryEntry,
  normalizeStoreInput,
  nowIso,
  type RelationUpsert,
  type StoreInput,
  type Supersession,
  type WriteResult,
} from "@memory/api";
import { checkConflicts, conflictCheckApplies, withConflict } from "./conflicts/check-conflicts.js";
import { conflictQuery } from "./conflicts/conflict-query.js";
import { conflictRecordOf, conflictSupersessionRecord } from "./conflicts/decision-record.js";
import { readFact } from "./conflicts/facts/read-fact.js";
import { planMentions } from "./entities/entity-mentions.js";
import type { FacadeContext } from "./facade-context.js";
import { facadeStages } from "./facade-stages.js";
import { planVersion } from "./key-history.js";
import { RecallEngine } from "./recall/recall-engine.js";
import { embedDocuments, givenVector, vectorsWritable, vectorUnavailable } from "./vector-state.js";

/**
 * `store`, conflict detection included, as one unit of work: the document is embedded once, the
 * candidates are found through the engine BEFORE the write (that vector as the query vector), and
 * the entry plus the supersessions it decides go to the driver as one write batch, so no crash or
 * concurrent writer can leave the new entry without its supersessions.
 */
export async function storeEntry(context: FacadeContext, input: StoreInput): Promise<MemoryEntry> {
  const { options, driver } = context;
  const normalized = normalizeStoreInput(input);
  assertNotVersionKey(normalized.key);
  assertNotCollectionKey(normalized.key, "store");
  const given = givenVector(context, normalized.embedding);
  const now = nowIso();
  const record: EntryRecord = {
    id: crypto.randomUUID(),
    key: normalized.key,
    content: normalized.content,
    category: normalized.category,
    namespace: normalized.namespace,
    createdAt: now,
    updatedAt: now,
  };
  if (normalized.sessionId !== undefined) record.sessionId = normalized.sessionId;
  if (normalized.importance !== undefined) record.importance = normalized.importance;
  const checked = conflictCheckApplies(record as MemoryEntry, options.settings);
  // Deferred embedding skips the provider at store time; the conflict check then finds its
  // candidates by keyword (it never forces an embedding: its cost is one engine query).
  const inline = !context.defers;
  let vector: ArrayLike<number> | undefined =
    given && (await vectorsWritable(context)) ? given : undefined;
  if (!vector && inline) [vector] = await embedDocuments(context, [normalized.content]);
  context.assertOpen();
  const planned: Supersession[] = [];
  const decision = checked
    ? await findConflicts(context, record as MemoryEntry, vector, planned)
    : undefined;
  const version = await planVersion(context, record);
  if (decision) {
    // Kept with the entries, in this same batch: the new entry's decision, and on each entry it
    // supersedes, by which key and why. After planVersion, which may move `updatedAt` on.
    record.conflictRecord = conflictRecordOf(decision, record.updatedAt);
    for (const supersession of planned) {
      supersession.record = conflictSupersessionRecord(
        decision,
        supersession.key,
        record.key,
        record.updatedAt,
      );
    }
  }
  const links = decision ? contradictsRelations(decision, record) : [];
  // The entities the entry names, in its own batch (after planVersion: the edges carry its time).
  const mentions = await planMentions(context, [record], { replace: true });
  const edges = [...links, ...mentions.relations];
  context.assertOpen();
  const result = await driver.write({
    upserts: [
      { entry: record, ...(vector ? { vector } : {}) },
      ...version.upserts,
      ...mentions.upserts,
    ],
    supersessions: planned,
    deletes: version.deletes,
    ...(edges.length > 0 ? { relations: edges } : {}),
    ...(mentions.unrelations.length > 0 ? { unrelations: mentions.unrelations } : {}),
    ...(options.embedder ? { vectorFingerprint: options.embedder.fingerprint } : {}),
  });
  context.written(record.namespace);
  if (decision) settleDecision(decision, planned, result.superseded);
  if (decision && links.length > 0) settleLinks(decision, links, result.related);
  if (!vector && options.embedder && !inline) context.worker.signal();
  const stored = withConflict(result.upserted[0]!, decision);
  return version.kept === undefined ? stored : { ...stored, keptVersion: version.kept };
}

/** Reads the candidates' facts, decides with the conflict rules and plans the supersessions. */
async function findConflicts(
  context: FacadeContext,
  entry: MemoryEntry,
  vector: ArrayLike<number> | undefined,
  planned: Supersession[],
): Promise<ConflictDecision | undefined> {
  const settings = effectiveSettings(context);
  // ONE engine query: the text plus the subject's head and the attribute's surface forms; its
  // embedding is answered with the document vector (no second embedding).
  const query =
    settings.textLanguage === "none"
      ? entry.content
      : conflictQuery(entry.content, readFact(entry.content));
  // A private engine: no hot cache (the store is about to change), the document vector as the
  // query vector, never the public `recall` of the memory.
  const engine = new RecallEngine({
    settings: { ...settings, recallCacheSize: 0 },
    embedder: context.options.embedder,
    now: context.options.now,
    stages: facadeStages(
      () => context.driver.recallStages,
      () => vectorUnavailable(context),
      { text: query, vector },
    ),
  });
  return checkConflicts(
    {
      recall: (query, recallOptions) => engine.recall(query, recallOptions),
      markSuperseded: async (oldKey, newKey, keyOptions) => {
        planned.push({
          namespace: keyOptions?.namespace ?? entry.namespace,
          key: oldKey,
          supersededBy: newKey,
        });
        return true;
      },
    },
    entry,
    settings,
    {
      query,
      chatModel: context.options.chatModel,
      ...(vector === undefined ? { searchMode: "bm25" as const } : {}),
    },
  );
}

/** A planned supersession whose entry was forgotten before the batch ran did not happen. */
function settleDecision(
  decision: ConflictDecision,
  planned: readonly Supersession[],
  applied: readonly boolean[],
): void {
  planned.forEach((supersession, index) => {
    if (applied[index]) return;
    decision.superseded = decision.superseded.filter((key) => key !== supersession.key);
    const candidate = decision.candidates.find((c) => c.key === supersession.key);
    if (candidate) candidate.superseded = false;
  });
}

/**
 * `conflict_policy = "link"` needs relations: on a backend without them it acts as `flag`
 * (records the contradiction, hides nothing), as docs/relations.md says.
 */
function effectiveSettings(context: FacadeContext): FacadeContext["options"]["settings"] {
  const { settings } = context.options;
  if (settings.conflictPolicy !== "link" || context.driver.capabilities.relations) return settings;
  return { ...settings, conflictPolicy: "flag" };
}

/** `conflict_policy = "link"`: the new entry `contradicts` each older one, in the store's batch. */
function contradictsRelations(
  decision: ConflictDecision,
  record: { namespace: string; key: string; updatedAt: string },
): RelationUpsert[] {
  return (decision.linked ?? [])
    .filter((key) => key !== record.key)
    .map((key) => {
      const candidate = decision.candidates.find((item) => item.key === key);
      const metadata: Record<string, unknown> = { decidedBy: candidate?.decidedBy ?? "rules" };
      if (candidate?.rule !== undefined) metadata.rule = candidate.rule;
      return {
        relation: {
          namespace: record.namespace,
          from: record.key,
          to: key,
          type: "contradicts",
          weight: 1,
          metadata,
          createdAt: record.updatedAt,
          updatedAt: record.updatedAt,
        },
      };
    });
}

/** A linked entry forgotten before the batch ran was not linked. */
function settleLinks(
  decision: ConflictDecision,
  links: readonly RelationUpsert[],
  related: WriteResult["related"],
): void {
  links.forEach((link, index) => {
    if (related?.[index]) return;
    const key = link.relation.to;
    decision.linked = decision.linked?.filter((linked) => linked !== key);
    const candidate = decision.candidates.find((c) => c.key === key);
    if (candidate) candidate.linked = false;
  });
}
