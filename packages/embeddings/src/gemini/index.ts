export {
  createGeminiChatModel,
  GEMINI_DEFAULT_CHAT_MODEL,
  GeminiChatModel,
  type GeminiChatSettings,
} from "./gemini-chat-model.js";
export { createGeminiEmbeddings, GeminiEmbeddingProvider } from "./gemini-embedding-provider.js";
export {
  GEMINI_DEFAULT_MODEL,
  type GeminiEmbeddingModelId,
  type GeminiEmbeddingSettings,
} from "./gemini-options.js";
