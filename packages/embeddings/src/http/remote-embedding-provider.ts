import {
  type EmbeddingProvider,
  type EmbeddingPurpose,
  type EmbedOptions,
  embeddingFingerprint,
  InvalidInputError,
} from "@memory/api";
import { chunk, mapWithConcurrency } from "./batching.js";
import type { CallKind } from "./http-errors.js";
import {
  type ProviderIdentity,
  positiveInteger,
  REMOTE_DEFAULTS,
  type RemoteSettings,
} from "./remote-settings.js";
import { checkVectors } from "./vectors.js";

export interface RemoteProviderInit {
  name: string;
  model: string;
  dimensions: number;
  identity: ProviderIdentity;
  settings: RemoteSettings;
  /** The API's own cap on texts per request. */
  providerMaxBatch: number;
}

/**
 * Batching, concurrency and response checks shared by the HTTP providers; subclasses only
 * translate one batch into one API request.
 */
export abstract class RemoteEmbeddingProvider implements EmbeddingProvider {
  readonly name: string;
  readonly model: string;
  readonly dimensions: number;
  readonly fingerprint: string;
  protected readonly identity: ProviderIdentity;
  protected readonly settings: RemoteSettings;
  protected readonly context: {
    settings: RemoteSettings;
    identity: ProviderIdentity;
    kind: CallKind;
  };
  private readonly batchSize: number;
  private readonly concurrency: number;

  protected constructor(init: RemoteProviderInit) {
    this.name = init.name;
    this.model = init.model;
    this.dimensions = positiveInteger("dimensions", init.dimensions, init.dimensions);
    this.fingerprint = embeddingFingerprint(init.name, init.model, this.dimensions);
    this.identity = init.identity;
    this.settings = init.settings;
    this.context = { settings: init.settings, identity: init.identity, kind: "embedding" };
    const requested = positiveInteger(
      "maxBatchSize",
      init.settings.maxBatchSize,
      init.providerMaxBatch,
    );
    this.batchSize = Math.min(requested, init.providerMaxBatch);
    this.concurrency = positiveInteger(
      "concurrency",
      init.settings.concurrency,
      REMOTE_DEFAULTS.concurrency,
    );
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    options.signal?.throwIfAborted();
    for (const [index, text] of texts.entries()) {
      if (typeof text !== "string") {
        throw new InvalidInputError(`embed() expects strings; item ${index} is ${typeof text}.`);
      }
    }
    if (texts.length === 0) return [];
    const purpose = options.purpose ?? "document";
    const batches = chunk(texts, this.batchSize);
    const results = await mapWithConcurrency(batches, this.concurrency, async (batch) => {
      const vectors = await this.embedBatch(batch, purpose, options.signal);
      return checkVectors(vectors, batch.length, this.dimensions, this.identity, this.model);
    });
    return results.flat();
  }

  async embedOne(text: string, options?: EmbedOptions): Promise<number[]> {
    const [vector] = await this.embed([text], options);
    return vector as number[];
  }

  /** Sends one request for at most `batchSize` texts; returns the raw vectors, in order. */
  protected abstract embedBatch(
    texts: string[],
    purpose: EmbeddingPurpose,
    signal: AbortSignal | undefined,
  ): Promise<unknown>;
}
