import { type ChatModel, ConfigError } from "@memory/api";
import { GeminiChatModel } from "./gemini/gemini-chat-model.js";
import type { RemoteSettings } from "./http/remote-settings.js";
import { OpenAIChatModel } from "./openai/openai-chat-model.js";

/** The chat keys of memory.toml's `[memory]` table, snake_case as written there. */
export interface ChatConfig {
  /** `openai`, `openrouter`, `gemini`, `custom:<base-url>`, or unset (no chat model). */
  chat_provider?: string;
  chat_model?: string;
  chat_timeout_ms?: number;
  [key: string]: unknown;
}

/**
 * The environment variable that holds a chat API key for any provider. It wins over the
 * provider's own variable (OPENAI_API_KEY, ...), so a chat model can use another account than
 * the embeddings. Keys never come from the configuration file.
 */
export const CHAT_API_KEY_ENV = "MEMORY_CHAT_API_KEY";

export interface ResolveChatModelOptions {
  /** Environment to read MEMORY_CHAT_API_KEY from (default `process.env`), at request time. */
  env?: NodeJS.ProcessEnv;
  /** Extra settings for the model (tests: `sleep`, `retryBaseDelayMs`, `fetch`). */
  settings?: Omit<RemoteSettings, "apiKey" | "baseURL" | "maxBatchSize" | "concurrency">;
}

/**
 * The configured chat model, or null when `chat_provider` is unset. Nothing is loaded or called
 * here: the SDK loads on the first `complete()`, and the key is read then (a missing key is a
 * CONFIG error of that call, naming the variable to set).
 */
export function resolveChatModel(
  config: ChatConfig,
  options: ResolveChatModelOptions = {},
): ChatModel | null {
  const provider = config.chat_provider?.trim();
  if (provider === undefined || provider === "") return null;
  const env = options.env ?? process.env;
  const key = env[CHAT_API_KEY_ENV];
  const common = {
    ...options.settings,
    ...(key === undefined || key === "" ? {} : { apiKey: key }),
    ...(config.chat_model === undefined ? {} : { model: config.chat_model }),
    ...(config.chat_timeout_ms === undefined ? {} : { timeoutMs: config.chat_timeout_ms }),
  };
  if (provider.startsWith("custom:")) {
    const baseURL = provider.slice("custom:".length);
    if (!URL.canParse(baseURL)) {
      throw new ConfigError(
        `chat_provider "${provider}" does not hold a valid URL after "custom:" (for example custom:http://localhost:11434/v1).`,
        { details: { chat_provider: provider } },
      );
    }
    return new OpenAIChatModel({ ...common, preset: "custom", baseURL });
  }
  switch (provider) {
    case "openai":
    case "openrouter":
      return new OpenAIChatModel({ ...common, preset: provider });
    case "gemini":
      return new GeminiChatModel(common);
    default:
      throw new ConfigError(
        `Unknown chat_provider "${provider}": use openai, openrouter, gemini or custom:<base-url>.`,
        { details: { chat_provider: provider } },
      );
  }
}
