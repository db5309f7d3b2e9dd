export { createVoyageEmbeddings, VoyageEmbeddingProvider } from "./voyage-embedding-provider.js";
export {
  VOYAGE_DEFAULT_MODEL,
  type VoyageEmbeddingModelId,
  type VoyageEmbeddingSettings,
} from "./voyage-options.js";
