import type { EmbeddingPurpose } from "@memory/api";
import { malformedResponse } from "../http/http-errors.js";
import { RemoteEmbeddingProvider } from "../http/remote-embedding-provider.js";
import { resolveApiKey } from "../http/remote-settings.js";
import { callThroughSdk } from "../http/sdk-call.js";
import { l2Normalize } from "../http/vectors.js";
import {
  GEMINI_DEFAULT_MODEL,
  GEMINI_FALLBACK_ENV,
  GEMINI_IDENTITY,
  GEMINI_MAX_BATCH,
  type GeminiEmbeddingSettings,
  geminiDimensions,
  isTruncated,
} from "./gemini-options.js";
import { genAIClient } from "./load-genai.js";

/** Gemini embeddings through `@google/genai` (batchEmbedContents). */
export class GeminiEmbeddingProvider extends RemoteEmbeddingProvider {
  private readonly truncated: boolean;
  private readonly sendDimensions: boolean;

  constructor(settings: GeminiEmbeddingSettings = {}) {
    const model = settings.model ?? GEMINI_DEFAULT_MODEL;
    const dimensions = geminiDimensions(model, settings.dimensions);
    super({
      name: "gemini",
      model,
      dimensions,
      identity: GEMINI_IDENTITY,
      settings,
      providerMaxBatch: GEMINI_MAX_BATCH,
    });
    this.truncated = isTruncated(model, dimensions);
    this.sendDimensions = settings.dimensions !== undefined;
  }

  protected async embedBatch(
    texts: string[],
    purpose: EmbeddingPurpose,
    signal: AbortSignal | undefined,
  ): Promise<number[][]> {
    const apiKey = resolveApiKey(this.settings, this.identity, {
      required: true,
      fallbackEnv: GEMINI_FALLBACK_ENV,
    }) as string;
    const response = await callThroughSdk(this.context, signal, async (fetch) => {
      const client = await genAIClient(this.settings, apiKey, fetch);
      return client.models.embedContent({
        model: this.model,
        contents: texts,
        config: {
          // Gemini embeds queries and documents into deliberately asymmetric spaces.
          taskType: purpose === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT",
          ...(this.sendDimensions ? { outputDimensionality: this.dimensions } : {}),
          ...(signal === undefined ? {} : { abortSignal: signal }),
        },
      });
    });
    const embeddings: unknown = response?.embeddings;
    if (!Array.isArray(embeddings)) {
      throw malformedResponse(this.identity, "embedding", "the body has no embeddings array");
    }
    return embeddings.map((embedding: { values?: unknown }) => {
      const values = embedding?.values;
      // Only the full-size output is normalized by the API; Google asks clients to normalize
      // truncated (Matryoshka) outputs themselves, or cosine and dot product disagree.
      return this.truncated && Array.isArray(values) && values.every((v) => typeof v === "number")
        ? l2Normalize(values as number[])
        : (values as number[]);
    });
  }
}

export function createGeminiEmbeddings(
  settings?: GeminiEmbeddingSettings,
): GeminiEmbeddingProvider {
  return new GeminiEmbeddingProvider(settings);
}
