import type { EmbeddingPurpose } from "@memory/api";
import { malformedResponse } from "../http/http-errors.js";
import { RemoteEmbeddingProvider } from "../http/remote-embedding-provider.js";
import { resolveApiKey } from "../http/remote-settings.js";
import { callThroughSdk } from "../http/sdk-call.js";
import { decodeBase64Floats } from "../http/vectors.js";
import { openAIClient } from "./load-openai.js";
import {
  dimensionsParameter,
  OPENAI_DEFAULT_MODEL,
  OPENAI_MAX_BATCH,
  type OpenAIEmbeddingSettings,
  presetInfo,
  resolveDimensions,
} from "./openai-options.js";

/** OpenAI embeddings, also OpenRouter and any OpenAI-compatible `/embeddings` endpoint. */
export class OpenAIEmbeddingProvider extends RemoteEmbeddingProvider {
  private readonly baseURL: string | undefined;
  private readonly keyRequired: boolean;
  private readonly encodingFormat: "float" | "base64";
  private readonly dimensionsParam: number | undefined;

  constructor(settings: OpenAIEmbeddingSettings = {}) {
    const preset = settings.preset ?? "openai";
    const info = presetInfo(preset, settings.baseURL);
    const model = settings.model ?? OPENAI_DEFAULT_MODEL;
    const dimensions = resolveDimensions(model, settings.dimensions);
    super({
      name: preset,
      model,
      dimensions,
      identity: info.identity,
      settings,
      providerMaxBatch: OPENAI_MAX_BATCH,
    });
    this.baseURL = info.baseURL;
    this.keyRequired = info.keyRequired;
    this.encodingFormat = settings.encodingFormat ?? "base64";
    this.dimensionsParam = dimensionsParameter(model, dimensions);
  }

  protected async embedBatch(
    texts: string[],
    _purpose: EmbeddingPurpose,
    signal: AbortSignal | undefined,
  ): Promise<number[][]> {
    const apiKey = resolveApiKey(this.settings, this.identity, { required: this.keyRequired });
    const response = await callThroughSdk(this.context, signal, async (fetch) => {
      const client = await openAIClient(this.settings, this.baseURL, apiKey, fetch);
      return client.embeddings.create(
        {
          model: this.model,
          input: texts,
          encoding_format: this.encodingFormat,
          ...(this.dimensionsParam === undefined ? {} : { dimensions: this.dimensionsParam }),
        },
        { signal },
      );
    });
    const data: unknown = (response as { data?: unknown }).data;
    if (!Array.isArray(data)) {
      throw malformedResponse(this.identity, "embedding", "the body has no data array");
    }
    // The API documents `index`; order by it rather than trusting the array order.
    const rows = [...data].sort((a, b) => indexOf(a) - indexOf(b));
    return rows.map((row) => {
      const embedding: unknown = (row as { embedding?: unknown }).embedding;
      if (typeof embedding === "string") {
        try {
          return decodeBase64Floats(embedding);
        } catch (error) {
          throw malformedResponse(this.identity, "embedding", "invalid base64 embedding", error);
        }
      }
      return embedding as number[];
    });
  }
}

function indexOf(row: unknown): number {
  const index = (row as { index?: unknown } | null)?.index;
  return typeof index === "number" ? index : 0;
}

/** Creates an OpenAI (or OpenRouter, or OpenAI-compatible) embedding provider. */
export function createOpenAIEmbeddings(
  settings?: OpenAIEmbeddingSettings,
): OpenAIEmbeddingProvider {
  return new OpenAIEmbeddingProvider(settings);
}
