import { ConfigError } from "@memory/api";
import type { ProviderIdentity, RemoteSettings } from "../http/remote-settings.js";

/** Embedding models with a known native size; any other id works when `dimensions` is set. */
export type OpenAIEmbeddingModelId =
  | "text-embedding-3-small"
  | "text-embedding-3-large"
  | "text-embedding-ada-002"
  | (string & {});

const NATIVE_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

/** Models that accept the `dimensions` request parameter (Matryoshka-trained). */
const SHORTENABLE = new Set(["text-embedding-3-small", "text-embedding-3-large"]);

/** `openai` (api.openai.com), `openrouter`, or `custom` (any OpenAI-compatible server). */
export type OpenAIPreset = "openai" | "openrouter" | "custom";

export interface OpenAIEmbeddingSettings extends RemoteSettings {
  /** Which service to talk to. Default `openai`; `custom` requires `baseURL`. */
  preset?: OpenAIPreset;
  /** Default `text-embedding-3-small`. */
  model?: OpenAIEmbeddingModelId;
  /** Vector size. Default: the model's native size; required for models not listed above. */
  dimensions?: number;
  /** Wire encoding of vectors. Default `base64` (about 4x smaller than decimal floats). */
  encodingFormat?: "float" | "base64";
}

export const OPENAI_DEFAULT_MODEL = "text-embedding-3-small";
/** The API accepts at most 2048 inputs per request. */
export const OPENAI_MAX_BATCH = 2048;

interface PresetInfo {
  baseURL: string | undefined;
  identity: ProviderIdentity;
  keyRequired: boolean;
}

export function presetInfo(preset: OpenAIPreset, baseURL: string | undefined): PresetInfo {
  switch (preset) {
    case "openai":
      return {
        baseURL: baseURL ?? "https://api.openai.com/v1",
        identity: { label: "OpenAI", apiKeyEnv: "OPENAI_API_KEY" },
        keyRequired: true,
      };
    case "openrouter":
      return {
        baseURL: baseURL ?? "https://openrouter.ai/api/v1",
        identity: { label: "OpenRouter", apiKeyEnv: "OPENROUTER_API_KEY" },
        keyRequired: true,
      };
    case "custom":
      if (baseURL === undefined || baseURL === "") {
        throw new ConfigError(
          'The custom OpenAI-compatible preset needs a baseURL: pass the baseURL option or configure embedding_provider = "custom:<base-url>" (for example custom:http://localhost:11434/v1).',
        );
      }
      return {
        baseURL,
        // Local servers (Ollama, vLLM, llama.cpp) usually need no key; send one only if given.
        identity: { label: `OpenAI-compatible server (${baseURL})`, apiKeyEnv: "OPENAI_API_KEY" },
        keyRequired: false,
      };
  }
}

/** The model id without an OpenRouter-style vendor prefix (`openai/text-embedding-3-small`). */
function bareModel(model: string): string {
  const slash = model.lastIndexOf("/");
  return slash === -1 ? model : model.slice(slash + 1);
}

export function resolveDimensions(model: string, dimensions: number | undefined): number {
  const native = NATIVE_DIMENSIONS[bareModel(model)];
  if (dimensions !== undefined) return dimensions;
  if (native !== undefined) return native;
  throw new ConfigError(
    `The size of vectors from model "${model}" is not known: set the dimensions option (embedding_dims in memory.toml).`,
    { details: { model } },
  );
}

/** Sends `dimensions` only where the API supports it and it changes something. */
export function dimensionsParameter(model: string, dimensions: number): number | undefined {
  const bare = bareModel(model);
  return SHORTENABLE.has(bare) && NATIVE_DIMENSIONS[bare] !== dimensions ? dimensions : undefined;
}
