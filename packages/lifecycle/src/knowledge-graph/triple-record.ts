import type { Memory, MemoryEntry } from "@memory/api";
import { TRIPLE_CATEGORY } from "@memory/core";
import { isPredicate, type Predicate } from "./predicates.js";

/** A knowledge-graph triple as stored: the content of one `triple` entry (docs/knowledge-graph.md). */
export interface TripleRecord {
  /** Entity id of the subject (`entityId`), e.g. `melanie` or `user`. */
  subject: string;
  predicate: Predicate;
  /** Entity id of the object (a name, a thing, a date). */
  object: string;
  /** The subject and object as the model wrote them ("Melanie", "Paris"). */
  subjectName: string;
  objectName: string;
  /** When the triple became true (the time of the turn or exchange that said it). */
  validFrom: string;
  /** When a newer value replaced it (single-valued predicates); null while it holds. */
  validTo: string | null;
}

/** A stored triple with the key of its entry. */
export type StoredTriple = TripleRecord & { key: string };

const TEXT_FIELDS = ["subject", "object", "subjectName", "objectName", "validFrom"] as const;

/** The record's shape, checked by hand: a scan parses every triple, and a schema costs twice as much. */
function isRecord(json: unknown): json is TripleRecord {
  if (typeof json !== "object" || json === null) return false;
  const record = json as Record<string, unknown>;
  for (const field of TEXT_FIELDS)
    if (typeof record[field] !== "string" || record[field] === "") return false;
  if (typeof record.predicate !== "string" || !isPredicate(record.predicate)) return false;
  return record.validTo === null || (typeof record.validTo === "string" && record.validTo !== "");
}

/**
 * The key of a triple's entry: subject, predicate and object, so the same triple said again
 * finds its entry by identity. A triple that holds again after it was closed gets a new entry
 * (the closed one keeps its interval for `asOf` reads): the key then ends with `@<validFrom>`.
 */
export function tripleKey(
  record: Pick<TripleRecord, "subject" | "predicate" | "object">,
  validFrom?: string,
): string {
  const base = `triple:${record.subject}|${record.predicate}|${record.object}`;
  return validFrom === undefined ? base : `${base}@${validFrom}`;
}

/** The entry content of a triple: one JSON object (a tool's record, never recalled). */
export function tripleContent(record: TripleRecord): string {
  return JSON.stringify({
    subject: record.subject,
    predicate: record.predicate,
    object: record.object,
    subjectName: record.subjectName,
    objectName: record.objectName,
    validFrom: record.validFrom,
    validTo: record.validTo,
  });
}

/** The triple an entry holds, or undefined when its content is not a triple record. */
export function parseTriple(entry: MemoryEntry): StoredTriple | undefined {
  let json: unknown;
  try {
    json = JSON.parse(entry.content);
  } catch {
    return undefined;
  }
  if (!isRecord(json)) return undefined;
  return {
    subject: json.subject,
    predicate: json.predicate,
    object: json.object,
    subjectName: json.subjectName,
    objectName: json.objectName,
    validFrom: json.validFrom,
    validTo: json.validTo,
    key: entry.key,
  };
}

/** Entries read per page when the triples of a namespace are scanned. */
const PAGE = 5_000;

/**
 * Every current triple of a namespace (superseded versions left out). A scan of the `triple`
 * category, page by page: fine for the thousands of triples a person's memory holds (measured in
 * docs/knowledge-graph.md); entries whose content is not a triple record are skipped.
 */
export async function readTriples(memory: Memory, namespace: string): Promise<StoredTriple[]> {
  const triples: StoredTriple[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await memory.list({
      namespace,
      categories: [TRIPLE_CATEGORY],
      limit: PAGE,
      offset,
    });
    for (const entry of page) {
      const triple = parseTriple(entry);
      if (triple) triples.push(triple);
    }
    if (page.length < PAGE) return triples;
  }
}

/** True when the triple held at `time` (validFrom inclusive, validTo exclusive). */
export function validAt(triple: TripleRecord, time: string): boolean {
  return triple.validFrom <= time && (triple.validTo === null || time < triple.validTo);
}
