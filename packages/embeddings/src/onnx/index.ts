export { createOnnxEmbeddings, OnnxEmbeddingProvider } from "./onnx-embedding-provider.js";
export { ONNX_DEFAULTS, type OnnxEmbeddingSettings } from "./onnx-options.js";
export { WordPieceTokenizer } from "./wordpiece-tokenizer.js";
