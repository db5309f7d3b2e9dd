import type { NormalizedStoreInput, TextLanguage } from "@memory/api";
import { countIndexedTerms, indexedTerms } from "@memory/core";
import { contentHash } from "./hashing.js";
import type { EntryRow } from "./row-mapping.js";
import type { StatementCache } from "./statement-cache.js";

// Only what the database decides comes back; echoing the content would copy every string twice.
const RETURNING = "doc_id, id, created_at, pinned, snoozed_until";

// Upsert on (namespace, key). A store keeps id and created_at; an import may replace them
// (@given_id / @given_created_at), so one statement serves both. Pins and snoozes are a person's
// marks, not the content's: a store that does not name them keeps the stored ones (NULL), an
// import that carries them replaces them.
const UPSERT = `
INSERT INTO memories (id, namespace, key, content, category, session_id, importance, superseded_by, supersession_record, conflict_record, content_hash, search_terms, term_count, created_at, updated_at, pinned, snoozed_until)
VALUES (@id, @namespace, @key, @content, @category, @session_id, @importance, @superseded_by, @supersession_record, @conflict_record, @content_hash, @search_terms, @term_count, @created_at, @updated_at, coalesce(@pinned, 0), @snoozed_until)
ON CONFLICT (namespace, key) DO UPDATE SET
  id = coalesce(@given_id, memories.id),
  created_at = coalesce(@given_created_at, memories.created_at),
  content = excluded.content, category = excluded.category, session_id = excluded.session_id,
  importance = excluded.importance, superseded_by = excluded.superseded_by,
  supersession_record = excluded.supersession_record, conflict_record = excluded.conflict_record,
  content_hash = excluded.content_hash, search_terms = excluded.search_terms,
  term_count = excluded.term_count, updated_at = excluded.updated_at,
  pinned = coalesce(@pinned, memories.pinned),
  snoozed_until = coalesce(@snoozed_until, memories.snoozed_until)
RETURNING ${RETURNING}`;

export interface UpsertExtras {
  /** A given id: it replaces the stored one of an existing (namespace, key). */
  id?: string | undefined;
  /** The id a new (namespace, key) takes when no id is given (default a new UUID). */
  insertId?: string | undefined;
  createdAt?: string | undefined;
  updatedAt: string;
  supersededBy?: string | undefined;
  /** Why it is superseded and what its store decided, as JSON text (schema v7). */
  supersessionRecord?: string | undefined;
  conflictRecord?: string | undefined;
  /** Set when given (an import); undefined keeps the stored mark (a store). */
  pinned?: boolean | undefined;
  snoozedUntil?: string | undefined;
  /** The store's `text_language` (the analyzer rules of its index terms). */
  language: TextLanguage;
}

/** Writes one entry (inside the caller's transaction) and returns the stored row. */
export function upsertEntry(
  statements: StatementCache,
  input: NormalizedStoreInput,
  extras: UpsertExtras,
): EntryRow {
  const hash = contentHash(input.content);
  // The shared analyzer's terms: FTS5 indexes them as they are (schema v3).
  const terms = indexedTerms(input.key, input.content, extras.language);
  const decided = statements.get(UPSERT).get({
    id: extras.id ?? extras.insertId ?? crypto.randomUUID(),
    given_id: extras.id ?? null,
    namespace: input.namespace,
    key: input.key,
    content: input.content,
    category: input.category,
    session_id: input.sessionId ?? null,
    importance: input.importance ?? null,
    superseded_by: extras.supersededBy ?? null,
    supersession_record: extras.supersessionRecord ?? null,
    conflict_record: extras.conflictRecord ?? null,
    content_hash: hash,
    search_terms: terms,
    term_count: countIndexedTerms(terms),
    created_at: extras.createdAt ?? extras.updatedAt,
    given_created_at: extras.createdAt ?? null,
    updated_at: extras.updatedAt,
    pinned: extras.pinned === undefined ? null : Number(extras.pinned),
    snoozed_until: extras.snoozedUntil ?? null,
  }) as Pick<EntryRow, "doc_id" | "id" | "created_at" | "pinned" | "snoozed_until">;
  return {
    ...decided,
    namespace: input.namespace,
    key: input.key,
    content: input.content,
    category: input.category,
    session_id: input.sessionId ?? null,
    importance: input.importance ?? null,
    superseded_by: extras.supersededBy ?? null,
    supersession_record: extras.supersessionRecord ?? null,
    conflict_record: extras.conflictRecord ?? null,
    content_hash: hash,
    updated_at: extras.updatedAt,
  };
}
