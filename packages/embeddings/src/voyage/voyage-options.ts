import { ConfigError } from "@memory/api";
import type { ProviderIdentity, RemoteSettings } from "../http/remote-settings.js";

export type VoyageEmbeddingModelId =
  | "voyage-3.5"
  | "voyage-3.5-lite"
  | "voyage-3-large"
  | "voyage-code-3"
  | "voyage-3"
  | "voyage-3-lite"
  | (string & {});

const NATIVE_DIMENSIONS: Record<string, number> = {
  "voyage-3.5": 1024,
  "voyage-3.5-lite": 1024,
  "voyage-3-large": 1024,
  "voyage-code-3": 1024,
  "voyage-3": 1024,
  "voyage-3-lite": 512,
};

export interface VoyageEmbeddingSettings extends RemoteSettings {
  /** Default `voyage-3.5`. */
  model?: VoyageEmbeddingModelId;
  /** `output_dimension`; default the model's native size (256, 512, 1024 or 2048 on v3.5). */
  dimensions?: number;
}

export const VOYAGE_DEFAULT_MODEL = "voyage-3.5";
/** The documented cap on `input` list length per request. */
export const VOYAGE_MAX_BATCH = 128;
export const VOYAGE_IDENTITY: ProviderIdentity = { label: "Voyage", apiKeyEnv: "VOYAGE_API_KEY" };

export function voyageDimensions(model: string, dimensions: number | undefined): number {
  if (dimensions !== undefined) return dimensions;
  const native = NATIVE_DIMENSIONS[model];
  if (native !== undefined) return native;
  throw new ConfigError(
    `The size of vectors from Voyage model "${model}" is not known: set the dimensions option (embedding_dims in memory.toml).`,
    { details: { model } },
  );
}
