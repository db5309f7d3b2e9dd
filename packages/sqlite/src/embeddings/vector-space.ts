import type { EmbeddingProvider } from "@memory/api";
import type { StatementCache } from "../statement-cache.js";

/**
 * The store's vector space as its meta table records it: the fingerprint of the provider that
 * made the stored vectors, and their size. Storage only: whether a provider may use them is the
 * facade's rule (`@memory/core`, vector-state.ts), which reads `fingerprint` and, last, the
 * driver's own `problem`.
 */
export class VectorSpace {
  /** The recorded fingerprint (adopted at open, replaced by reindex). */
  fingerprint: string | undefined;
  /**
   * Why this store cannot take the provider's vectors although no fingerprint says so: vectors
   * written before fingerprints were recorded, of another size than the provider's.
   */
  problem: string | undefined;
  readonly #statements: StatementCache;

  constructor(statements: StatementCache) {
    this.#statements = statements;
  }

  #meta(key: string): string | undefined {
    const row = this.#statements.get("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  #setMeta(key: string, value: string): void {
    this.#statements.get("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, value);
  }

  /**
   * Reads the record. A store with none (written before fingerprints were recorded, or new)
   * adopts the provider when its vectors, if any, have the provider's size.
   */
  open(provider: EmbeddingProvider | undefined, file: string, log: (message: string) => void) {
    this.fingerprint = this.#meta("embedding_fingerprint");
    this.problem = undefined;
    if (!provider || this.fingerprint !== undefined) return;
    const storedDims = Number(this.#meta("embedding_dims") ?? Number.NaN);
    const hasVectors =
      this.#statements.get("SELECT 1 FROM memory_vectors LIMIT 1").get() !== undefined;
    if (hasVectors && storedDims !== provider.dimensions) {
      this.problem = `stored vectors have ${storedDims} dimensions but the provider ${provider.fingerprint} makes ${provider.dimensions}: recall is keyword-only until reindex() (memory reindex) re-embeds every entry`;
      return;
    }
    this.#statements.db.transaction(() => this.record(provider)).immediate();
    if (hasVectors) {
      log(
        `@memory/sqlite: ${file} had ${storedDims}-dimensional vectors with no recorded model; they are adopted as ${provider.fingerprint}. Run reindex() if they came from another model.`,
      );
    }
  }

  /** Records the provider as the store's vector space (adoption, reindex). */
  record(provider: EmbeddingProvider): void {
    this.#setMeta("embedding_fingerprint", provider.fingerprint);
    this.#setMeta("embedding_dims", String(provider.dimensions));
    this.fingerprint = provider.fingerprint;
    this.problem = undefined;
  }
}
