export {
  createOpenAIChatModel,
  OPENAI_DEFAULT_CHAT_MODEL,
  OpenAIChatModel,
  type OpenAIChatSettings,
} from "./openai-chat-model.js";
export { createOpenAIEmbeddings, OpenAIEmbeddingProvider } from "./openai-embedding-provider.js";
export {
  OPENAI_DEFAULT_MODEL,
  type OpenAIEmbeddingModelId,
  type OpenAIEmbeddingSettings,
  type OpenAIPreset,
} from "./openai-options.js";
