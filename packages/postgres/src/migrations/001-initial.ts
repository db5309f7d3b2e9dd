import type { Migration } from "./migration.js";

/**
 * The entries table. `search` is maintained by the memory (not a generated column) because its
 * text is made in JavaScript with `indexTokens`: the same tokenizer as queries, with CJK runs
 * cut into bigrams, so "記憶" finds "私は記憶力が良い". Vectors live in their own table (created
 * at first use, when the dimension is known), so entry rows stay small.
 */
export const initial: Migration = {
  version: 1,
  name: "initial",
  up: (s) => `
    CREATE SEQUENCE ${s}.memory_write_seq;
    CREATE TABLE ${s}.memories (
      id text PRIMARY KEY,
      namespace text NOT NULL,
      key text NOT NULL,
      content text NOT NULL,
      category text NOT NULL,
      session_id text,
      importance double precision,
      superseded_by text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      -- Write order, to break ties between entries written in the same millisecond.
      created_seq bigint NOT NULL DEFAULT nextval('${s}.memory_write_seq'),
      updated_seq bigint NOT NULL DEFAULT nextval('${s}.memory_write_seq'),
      content_hash text NOT NULL,
      search tsvector NOT NULL,
      CONSTRAINT memories_namespace_key UNIQUE (namespace, key)
    );
    CREATE INDEX memories_search ON ${s}.memories USING gin (search);
    CREATE INDEX memories_recent ON ${s}.memories (namespace, updated_at DESC, updated_seq DESC);
    CREATE INDEX memories_created ON ${s}.memories (created_at, created_seq);
    CREATE INDEX memories_session ON ${s}.memories (session_id) WHERE session_id IS NOT NULL;
    CREATE TABLE ${s}.memory_meta (
      key text PRIMARY KEY,
      value text NOT NULL
    );
  `,
};
