/**
 * Throughput and cold start of the on-device providers at batch sizes 1, 16 and 64.
 * Run with `pnpm --filter @memory/embeddings bench` (or `npx tsx bench/embed-bench.ts`).
 */
import { rm } from "node:fs/promises";
import os from "node:os";
import type { EmbeddingProvider } from "@memory/api";
import { createLocalEmbeddings } from "../src/local/index.js";
import { createOnnxEmbeddings } from "../src/onnx/index.js";
import { benchTexts, SYNTHETIC, writeSyntheticBert } from "./synthetic-bert.js";

const BATCHES = [1, 16, 64];
const TEXTS = benchTexts(256);

interface Closable extends EmbeddingProvider {
  close(): Promise<void>;
}

async function measure(label: string, create: () => Closable): Promise<void> {
  const coldStart = performance.now();
  const provider = create();
  await provider.embedOne("Cold start: load the model and embed one sentence.");
  const coldMs = performance.now() - coldStart;
  console.log(`${label}: cold start ${coldMs.toFixed(0)} ms (load + first embedding)`);
  for (const batch of BATCHES) {
    // Batch 1 is slow enough that fewer texts give a stable rate.
    const texts = batch === 1 ? TEXTS.slice(0, 64) : TEXTS;
    await provider.embed(texts.slice(0, batch)); // warm-up at this shape
    // The median of three passes: shared CI machines are noisy.
    const rates: number[] = [];
    for (let pass = 0; pass < 3; pass++) {
      const started = performance.now();
      for (let start = 0; start < texts.length; start += batch) {
        await provider.embed(texts.slice(start, start + batch));
      }
      rates.push(texts.length / ((performance.now() - started) / 1000));
    }
    rates.sort((a, b) => a - b);
    const range = `${rates[0]?.toFixed(0)}-${rates[2]?.toFixed(0)}`;
    console.log(
      `${label}: batch ${String(batch).padStart(2)}  ${rates[1]?.toFixed(1)} texts/s (range ${range})`,
    );
  }
  await provider.close();
}

console.log(
  `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown cpu"})`,
);
console.log(`${TEXTS.length} texts of 8-30 words\n`);

await measure("local (USE lite, tfjs-wasm)", () => createLocalEmbeddings());

const dir = await writeSyntheticBert();
try {
  await measure(
    `onnx (synthetic MiniLM-sized, ${SYNTHETIC.layers} layers x ${SYNTHETIC.hidden})`,
    () => createOnnxEmbeddings({ modelDir: dir, dimensions: SYNTHETIC.hidden }),
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
