import { defineConfig } from "tsdown";

export default defineConfig({
  // One entry per provider, so `@memory/embeddings/onnx` etc. load only what they need.
  entry: {
    index: "src/index.ts",
    openai: "src/openai/index.ts",
    gemini: "src/gemini/index.ts",
    voyage: "src/voyage/index.ts",
    onnx: "src/onnx/index.ts",
    local: "src/local/index.ts",
    // Not an export: the `local` provider spawns it as its worker thread, found next to the
    // provider's chunk with new URL("./use-lite-worker.mjs", import.meta.url).
    "use-lite-worker": "src/local/use-lite-worker.ts",
  },
  format: "esm",
  dts: true,
  platform: "node",
  target: "node20",
});
