import type { EmbeddingPurpose } from "@memory/api";
import { malformedResponse } from "../http/http-errors.js";
import { importOptional } from "../http/optional-import.js";
import { RemoteEmbeddingProvider } from "../http/remote-embedding-provider.js";
import { resolveApiKey } from "../http/remote-settings.js";
import { callThroughSdk } from "../http/sdk-call.js";
import {
  VOYAGE_DEFAULT_MODEL,
  VOYAGE_IDENTITY,
  VOYAGE_MAX_BATCH,
  type VoyageEmbeddingSettings,
  voyageDimensions,
} from "./voyage-options.js";

type VoyageModule = typeof import("voyageai");
let loading: Promise<VoyageModule> | undefined;

function loadVoyage(): Promise<VoyageModule> {
  loading ??= importOptional("voyageai", "The voyage provider", () => import("voyageai"));
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

// ResilientFetch owns timeouts; the SDK's own (in seconds) must not fire first.
const SDK_TIMEOUT_SECONDS = 2_000_000;

/** Voyage AI embeddings through the official `voyageai` SDK, with `input_type` per purpose. */
export class VoyageEmbeddingProvider extends RemoteEmbeddingProvider {
  private readonly sendDimensions: boolean;

  constructor(settings: VoyageEmbeddingSettings = {}) {
    const model = settings.model ?? VOYAGE_DEFAULT_MODEL;
    super({
      name: "voyage",
      model,
      dimensions: voyageDimensions(model, settings.dimensions),
      identity: VOYAGE_IDENTITY,
      settings,
      providerMaxBatch: VOYAGE_MAX_BATCH,
    });
    this.sendDimensions = settings.dimensions !== undefined;
  }

  protected async embedBatch(
    texts: string[],
    purpose: EmbeddingPurpose,
    signal: AbortSignal | undefined,
  ): Promise<number[][]> {
    const apiKey = resolveApiKey(this.settings, this.identity) as string;
    const response = await callThroughSdk(this.context, signal, async (fetch) => {
      const { VoyageAIClient } = await loadVoyage();
      const client = new VoyageAIClient({
        apiKey,
        ...(this.settings.baseURL === undefined ? {} : { environment: this.settings.baseURL }),
        ...(this.settings.headers === undefined ? {} : { headers: this.settings.headers }),
        fetch,
        maxRetries: 0,
        timeoutInSeconds: SDK_TIMEOUT_SECONDS,
      });
      return client.embed(
        {
          input: texts,
          model: this.model,
          inputType: purpose,
          ...(this.sendDimensions ? { outputDimension: this.dimensions } : {}),
        },
        { maxRetries: 0, ...(signal === undefined ? {} : { abortSignal: signal }) },
      );
    });
    const data: unknown = response?.data;
    if (!Array.isArray(data)) {
      throw malformedResponse(this.identity, "embedding", "the body has no data array");
    }
    const rows = [...data].sort(
      (a: { index?: number }, b: { index?: number }) => (a.index ?? 0) - (b.index ?? 0),
    );
    return rows.map((row: { embedding?: unknown }) => row.embedding as number[]);
  }
}

export function createVoyageEmbeddings(
  settings?: VoyageEmbeddingSettings,
): VoyageEmbeddingProvider {
  return new VoyageEmbeddingProvider(settings);
}
