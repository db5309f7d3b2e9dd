import { EmbeddingError, type EmbeddingProvider, type EmbeddingPurpose } from "@memory/api";
import type { StatementCache } from "../statement-cache.js";
import type { EmbeddingCache } from "./embedding-cache.js";

export type VectorStatus = "ok" | "disabled" | "degraded";

/**
 * Which vector space the store is in, and whether the provider matches it. A provider whose
 * fingerprint differs from the stored one never writes or searches vectors (no mixed spaces);
 * recall degrades to keyword with `reason` until `reindex()`.
 */
export class EmbedderState {
  readonly provider: EmbeddingProvider | undefined;
  status: VectorStatus = "disabled";
  reason: string | undefined;
  storedFingerprint: string | undefined;
  readonly #statements: StatementCache;
  readonly #cache: EmbeddingCache;
  readonly #log: (message: string) => void;
  /** Query embeddings stay in memory: a recall must not write to the database (no write lock on the read path). */
  readonly #queries = new Map<string, Float32Array>();

  constructor(
    statements: StatementCache,
    cache: EmbeddingCache,
    provider: EmbeddingProvider | undefined,
    log: (message: string) => void,
  ) {
    this.#statements = statements;
    this.#cache = cache;
    this.provider = provider && provider.dimensions > 0 ? provider : undefined;
    this.#log = log;
  }

  /** True when vectors may be written and searched. */
  get usable(): boolean {
    return this.status === "ok";
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

  /** Compares the provider with what the store recorded; adopts it when nothing was recorded. */
  refresh(file: string): void {
    const provider = this.provider;
    this.storedFingerprint = this.#meta("embedding_fingerprint");
    if (!provider) {
      this.status = "disabled";
      this.reason =
        "no embedding provider is configured: recall is keyword-only (set embedding_provider to enable vector recall)";
      return;
    }
    const stored = this.storedFingerprint;
    if (stored === provider.fingerprint) {
      this.status = "ok";
      this.reason = undefined;
      return;
    }
    const db = this.#statements.db;
    if (stored === undefined) {
      const storedDims = Number(this.#meta("embedding_dims") ?? Number.NaN);
      const hasVectors =
        this.#statements.get("SELECT 1 FROM memory_vectors LIMIT 1").get() !== undefined;
      if (!hasVectors || storedDims === provider.dimensions) {
        db.transaction(() => {
          this.#setMeta("embedding_fingerprint", provider.fingerprint);
          this.#setMeta("embedding_dims", String(provider.dimensions));
        }).immediate();
        if (hasVectors) {
          this.#log(
            `@memory/sqlite: ${file} had ${storedDims}-dimensional vectors with no recorded model; they are adopted as ${provider.fingerprint}. Run reindex() if they came from another model.`,
          );
        }
        this.storedFingerprint = provider.fingerprint;
        this.status = "ok";
        this.reason = undefined;
        return;
      }
      this.status = "degraded";
      this.reason = `stored vectors have ${storedDims} dimensions but the provider ${provider.fingerprint} makes ${provider.dimensions}: recall is keyword-only until reindex() (memory reindex) re-embeds every entry`;
      return;
    }
    this.status = "degraded";
    this.reason = `stored vectors were made by ${stored} but the provider is ${provider.fingerprint}: recall is keyword-only until reindex() (memory reindex) re-embeds every entry`;
  }

  /** Records the provider as the store's vector space (reindex). */
  adoptProvider(): void {
    const provider = this.provider;
    if (!provider) return;
    this.#setMeta("embedding_fingerprint", provider.fingerprint);
    this.#setMeta("embedding_dims", String(provider.dimensions));
    this.storedFingerprint = provider.fingerprint;
    this.status = "ok";
    this.reason = undefined;
  }

  /** A query's embedding, from a small in-memory LRU (256 queries) or the provider. */
  async embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const hit = this.#queries.get(query);
    if (hit) {
      this.#queries.delete(query);
      this.#queries.set(query, hit);
      return hit;
    }
    const [vector] = await this.embed([query], "query", signal, false);
    this.#queries.set(query, vector!);
    if (this.#queries.size > 256) this.#queries.delete(this.#queries.keys().next().value as string);
    return vector!;
  }

  /** Embeds texts through the SQL cache; throws EmbeddingError on provider failure or wrong sizes. */
  async embed(
    texts: readonly string[],
    purpose: EmbeddingPurpose,
    signal?: AbortSignal,
    useCache = true,
  ): Promise<Float32Array[]> {
    const provider = this.provider;
    if (!provider) throw new EmbeddingError("No embedding provider is configured.");
    // Queries and documents may be embedded differently by some providers: separate cache keys.
    const fingerprint =
      purpose === "query" ? `${provider.fingerprint}#query` : provider.fingerprint;
    const cached = useCache ? this.#cache.lookup(texts, fingerprint) : texts.map(() => undefined);
    const missing: number[] = [];
    cached.forEach((vector, index) => {
      if (!vector) missing.push(index);
    });
    if (missing.length > 0) {
      let fresh: number[][];
      try {
        fresh = await provider.embed(
          missing.map((index) => texts[index]!),
          signal ? { purpose, signal } : { purpose },
        );
      } catch (error) {
        throw new EmbeddingError(
          `The embedding provider ${provider.fingerprint} failed: ${error instanceof Error ? error.message : String(error)}. The entry is kept and will be embedded by backfillEmbeddings().`,
          { cause: error },
        );
      }
      if (
        fresh.length !== missing.length ||
        fresh.some((vector) => vector.length !== provider.dimensions)
      ) {
        throw new EmbeddingError(
          `The embedding provider ${provider.fingerprint} returned vectors of the wrong count or size (expected ${missing.length} x ${provider.dimensions}).`,
        );
      }
      if (fresh.some((vector) => !vector.every(Number.isFinite))) {
        throw new EmbeddingError(
          `The embedding provider ${provider.fingerprint} returned NaN or Infinity; nothing was stored from it (the entry keeps working for keyword recall and is embedded by backfillEmbeddings() once the provider is fixed).`,
        );
      }
      const saved: { text: string; vector: number[] }[] = [];
      missing.forEach((index, position) => {
        const vector = fresh[position]!;
        cached[index] = Float32Array.from(vector);
        saved.push({ text: texts[index]!, vector });
      });
      if (useCache) this.#cache.save(saved, fingerprint);
    }
    return cached as Float32Array[];
  }
}
