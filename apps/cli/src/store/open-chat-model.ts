import { type ChatModel, ConfigError, type MemorySettings } from "@memory/api";
import { CHAT_API_KEY_ENV, resolveChatModel } from "@memory/embeddings";

/** The configured chat model, or a CONFIG error that says how to configure one. */
export function requireChatModel(settings: MemorySettings, command: string): ChatModel {
  const model = resolveChatModel(settings);
  if (model) return model;
  throw new ConfigError(
    `${command} needs a chat model: set chat_provider in [memory] (openai, openrouter, gemini or custom:<base-url>) or MEMORY_CHAT_PROVIDER, and the API key in ${CHAT_API_KEY_ENV} or the provider's variable (OPENAI_API_KEY, ...).`,
    { details: { key: "chat_provider" } },
  );
}
