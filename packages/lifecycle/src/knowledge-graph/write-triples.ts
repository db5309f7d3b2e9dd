import type { Memory } from "@memory/api";
import { entityId, MAX_ENTITY_NAME_LENGTH, TRIPLE_CATEGORY } from "@memory/core";
import { isPredicate, isSingleValued, type ModelTriple } from "./predicates.js";
import {
  readTriples,
  type StoredTriple,
  type TripleRecord,
  tripleContent,
  tripleKey,
  validAt,
} from "./triple-record.js";

/** One triple the model gave, with where and when it was said. */
export interface TripleInput extends ModelTriple {
  /** The entry it was read from (a fact): the triple is related to it with `derived_from`. */
  sourceKey: string;
  /** When it became true: the time of the turn or of the mined exchange. */
  validFrom: string;
}

/** What {@link writeTriples} did. */
export interface TripleReport {
  /** Triples written as new entries. */
  stored: StoredTriple[];
  /** Older triples whose validity a new value closed (`validTo` set). */
  closed: StoredTriple[];
  /** Triples already holding, said again (only a `derived_from` edge was added). */
  confirmed: number;
  /** Triples left out: a predicate outside the list, or a subject or object that is no name. */
  dropped: { predicate: number; name: number };
}

export function emptyTripleReport(): TripleReport {
  return { stored: [], closed: [], confirmed: 0, dropped: { predicate: 0, name: 0 } };
}

/** Words that mean the user, whose triples all meet at the subject `user`. */
const USER_WORDS = new Set(["user", "the user", "i", "me", "myself"]);

function subjectId(name: string): string | undefined {
  const folded = name.trim().toLowerCase();
  return USER_WORDS.has(folded) ? "user" : entityId(name);
}

/** Objects may be dates or numbers ("1990-05-01"), which `entityId` does not take as names. */
function objectId(name: string): string | undefined {
  const id = entityId(name);
  if (id !== undefined) return id;
  const folded = name.normalize("NFKC").trim().toLowerCase().replace(/\s+/gu, " ");
  return folded.length > 0 && folded.length <= MAX_ENTITY_NAME_LENGTH ? folded : undefined;
}

function predicateName(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/gu, "_");
}

/**
 * Writes the model's triples as `triple` entries (docs/knowledge-graph.md): unknown predicates
 * and nameless subjects/objects are dropped and counted; a triple already holding gets only a
 * `derived_from` edge to its new source; a new value of a single-valued predicate closes the
 * triple that held then (its `validTo` becomes the new `validFrom`) and, when a later value is
 * already known (conversations mined out of order), ends where that one starts. Multi-valued
 * predicates never close each other. `cache` (namespace -> its triples) saves the scan of the
 * namespace's triples across calls of one job.
 */
export async function writeTriples(
  memory: Memory,
  inputs: readonly TripleInput[],
  scope: { namespace?: string; sessionId?: string },
  report: TripleReport = emptyTripleReport(),
  cache?: Map<string, StoredTriple[]>,
): Promise<TripleReport> {
  if (inputs.length === 0) return report;
  const namespace = scope.namespace ?? "default";
  // A job that writes many batches (mine --synthesize) scans each namespace once: the cache is
  // kept current by this function, so it holds while this process is the only writer.
  let known = cache?.get(namespace);
  if (known === undefined) {
    known = await readTriples(memory, namespace);
    cache?.set(namespace, known);
  }
  const relations = memory.capabilities.relations === true;
  const write = async (record: TripleRecord, key: string) => {
    await memory.store({
      key,
      content: tripleContent(record),
      category: TRIPLE_CATEGORY,
      namespace,
      ...(scope.sessionId === undefined ? {} : { sessionId: scope.sessionId }),
    });
  };
  for (const input of inputs) {
    const predicate = predicateName(input.predicate);
    if (!isPredicate(predicate)) {
      report.dropped.predicate++;
      continue;
    }
    const subject = subjectId(input.subject);
    const object = objectId(input.object);
    if (subject === undefined || object === undefined) {
      report.dropped.name++;
      continue;
    }
    const { validFrom } = input;
    const same = known.filter(
      (triple) =>
        triple.subject === subject && triple.predicate === predicate && triple.object === object,
    );
    const holding = same.find((triple) => triple.validTo === null || validAt(triple, validFrom));
    let key: string;
    if (holding) {
      report.confirmed++;
      key = holding.key;
    } else {
      let validTo: string | null = null;
      if (isSingleValued(predicate)) {
        const others = known.filter(
          (triple) =>
            triple.subject === subject &&
            triple.predicate === predicate &&
            triple.object !== object,
        );
        for (const previous of others.filter((triple) => validAt(triple, validFrom))) {
          // Stored first, then changed in `known`: a failed store leaves the cache true.
          await write({ ...previous, validTo: validFrom }, previous.key);
          previous.validTo = validFrom;
          report.closed.push({ ...previous });
        }
        const later = others
          .map((triple) => triple.validFrom)
          .filter((time) => time > validFrom)
          .sort();
        validTo = later[0] ?? null;
      }
      const record: TripleRecord = {
        subject,
        predicate,
        object,
        subjectName: input.subject.trim(),
        objectName: input.object.trim(),
        validFrom,
        validTo,
      };
      key = same.length > 0 ? tripleKey(record, validFrom) : tripleKey(record);
      await write(record, key);
      const stored = { ...record, key };
      known.push(stored);
      report.stored.push(stored);
    }
    // The provenance edge; the triple itself does not depend on it (a source turn may be pruned).
    if (relations && input.sourceKey !== key) {
      await memory.relate(key, input.sourceKey, "derived_from", { namespace });
    }
  }
  return report;
}
