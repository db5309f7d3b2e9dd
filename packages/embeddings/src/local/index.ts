export {
  createLocalEmbeddings,
  LOCAL_DEFAULTS,
  LocalEmbeddingProvider,
  type LocalEmbeddingSettings,
  USE_LITE_DIMENSIONS,
} from "./use-lite-provider.js";
