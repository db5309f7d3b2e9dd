import { validateEmbedding } from "@memory/api";
import type { Opened } from "../opened-store.js";

function storedDims(opened: Opened): number | undefined {
  const row = opened.statements.get("SELECT value FROM meta WHERE key = 'embedding_dims'").get() as
    | { value: string }
    | undefined;
  return row ? Number(row.value) : undefined;
}

/** Checks a caller-given vector; undefined when it must not be written (other vector space). */
export function givenVector(opened: Opened, embedding: number[] | undefined): number[] | undefined {
  if (!embedding) return undefined;
  const { embedder } = opened;
  if (embedder.provider) {
    validateEmbedding(embedding, embedder.provider.dimensions);
    return embedder.usable ? embedding : undefined;
  }
  const dims = storedDims(opened);
  validateEmbedding(embedding, dims);
  if (dims === undefined) {
    opened.statements
      .get("INSERT OR REPLACE INTO meta (key, value) VALUES ('embedding_dims', ?)")
      .run(String(embedding.length));
    opened.vectors.reset(embedding.length);
  }
  return embedding;
}
