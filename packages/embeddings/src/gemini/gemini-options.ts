import { ConfigError } from "@memory/api";
import type { ProviderIdentity, RemoteSettings } from "../http/remote-settings.js";

export type GeminiEmbeddingModelId = "gemini-embedding-001" | "text-embedding-004" | (string & {});

const NATIVE_DIMENSIONS: Record<string, number> = {
  "gemini-embedding-001": 3072,
  "text-embedding-004": 768,
};

export interface GeminiEmbeddingSettings extends RemoteSettings {
  /** Default `gemini-embedding-001`. */
  model?: GeminiEmbeddingModelId;
  /**
   * Output dimensionality. Default: the model's native size (3072 for gemini-embedding-001).
   * gemini-embedding-001 also offers 768 and 1536, which cost less storage.
   */
  dimensions?: number;
}

export const GEMINI_DEFAULT_MODEL = "gemini-embedding-001";
/** batchEmbedContents accepts at most 100 requests per call. */
export const GEMINI_MAX_BATCH = 100;
export const GEMINI_IDENTITY: ProviderIdentity = { label: "Gemini", apiKeyEnv: "GEMINI_API_KEY" };
/** Also accepted, as Google's own tools use it. */
export const GEMINI_FALLBACK_ENV = ["GOOGLE_API_KEY"] as const;

export function geminiDimensions(model: string, dimensions: number | undefined): number {
  if (dimensions !== undefined) return dimensions;
  const native = NATIVE_DIMENSIONS[model.replace(/^models\//, "")];
  if (native !== undefined) return native;
  throw new ConfigError(
    `The size of vectors from Gemini model "${model}" is not known: set the dimensions option (embedding_dims in memory.toml).`,
    { details: { model } },
  );
}

/** True when the requested size is a truncation of the model's native output. */
export function isTruncated(model: string, dimensions: number): boolean {
  const native = NATIVE_DIMENSIONS[model.replace(/^models\//, "")];
  return native !== undefined && native !== dimensions;
}
