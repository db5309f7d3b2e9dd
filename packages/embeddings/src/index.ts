// The core entry stays light: provider classes here load their SDKs with import() on first use,
// so importing this module never pulls in openai, @google/genai, onnxruntime-node or tfjs.

export type { RemoteSettings } from "./http/remote-settings.js";
export { createNoopEmbeddings, NoopEmbeddingProvider } from "./noop-provider.js";
export {
  CHAT_API_KEY_ENV,
  type ChatConfig,
  type ResolveChatModelOptions,
  resolveChatModel,
} from "./resolve-chat-model.js";
export {
  type EmbeddingConfig,
  type ResolvedEmbeddingProvider,
  resolveEmbeddingProvider,
} from "./resolve-provider.js";
