// The core entry stays light: provider classes here load their SDKs with import() on first use,
// so importing this module never pulls in openai, @google/genai, onnxruntime-node or tfjs.

export type { RemoteSettings } from "./http/remote-settings.js";
export { createNoopEmbeddings, NoopEmbeddingProvider } from "./noop-provider.js";
export {
  type EmbeddingConfig,
  type ResolvedEmbeddingProvider,
  resolveEmbeddingProvider,
} from "./resolve-provider.js";
