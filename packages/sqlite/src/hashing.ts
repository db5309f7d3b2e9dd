import { createHash } from "node:crypto";

/** SHA-256 of the text, first 16 hex digits: the content hash of entries and the embedding cache. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
