/**
 * Collections at scale, on a real SQLite file: a synthetic folder of notes (default 10,000) of
 * realistic sizes (most 0.5-4 KB, a tail to ~30 KB; headings, lists, code blocks), indexed with
 * the test hash embedder (vectors are computed and stored, but no model runs: the numbers are
 * the pipeline's, not a provider's).
 *
 *   pnpm --filter @memory/lifecycle bench:collections [-- <notes>] [--backend sqlite|postgres]
 *     [--postgres-url <url>]     (postgres: default MEMORY_TEST_POSTGRES_URL; bench-backend.ts)
 *
 * Prints: initial index rate, a sync with nothing changed (what a one-shot recall pays), a sync
 * of one changed note (and its provider calls), recall p50 with and without the collection
 * (and before it existed), and the peak RSS sampled every 50 ms.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { EmbeddingProvider, RecallOptions } from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";
import { addCollection, syncCollection } from "../src/index.js";
import { BACKEND_OPTIONS, benchBackend } from "./bench-backend.js";

const { values, positionals } = parseArgs({ options: BACKEND_OPTIONS, allowPositionals: true });
const NOTES = Number(positionals.find((arg) => /^\d+$/.test(arg)) ?? 10_000);
const backend = benchBackend(values);
const MEMORIES = 2_000;
const QUERIES = 300;

// mulberry32: 32-bit integer arithmetic throughout. (The classic LCG written with plain `*`
// loses precision past 2^53 in JavaScript and falls into a short cycle: repeated notes.)
let seed = 42;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const vocabulary = Array.from({ length: 3000 }, (_, index) => {
  let word = "";
  for (let n = index + 27; n > 0; n = Math.floor(n / 26))
    word += "abcdefghijklmnopqrstuvwxyz"[n % 26];
  return word;
});
// Zipf-like: low indexes much more frequent, as in real text (repeated texts hit the store's embedding cache).
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2)]!;
const sentence = (length: number) => `${Array.from({ length }, word).join(" ")}.`;

/** A note of about `bytes`: a title, sections of paragraphs, sometimes a list or code block. */
function note(index: number, bytes: number): string {
  const lines = [`# Note ${index}: ${sentence(4)}`, ""];
  let size = 0;
  while (size < bytes) {
    const section = [`## ${sentence(3)}`, "", sentence(12 + Math.floor(random() * 30)), ""];
    if (random() < 0.3) section.push(...Array.from({ length: 4 }, () => `- ${sentence(8)}`), "");
    if (random() < 0.15)
      section.push("```ts", `const ${word()} = ${word()}(${word()});`, "```", "");
    lines.push(...section);
    size += section.join("\n").length;
  }
  return lines.join("\n");
}

/** Most notes 0.5-4 KB, one in ten up to 30 KB. */
function noteSize(): number {
  return random() < 0.9 ? 500 + Math.floor(random() * 3500) : 4000 + Math.floor(random() * 26000);
}

function countingEmbedder(inner: EmbeddingProvider) {
  const counter = { documents: 0 };
  const provider: EmbeddingProvider = {
    ...inner,
    embed: async (texts, options) => {
      if (options?.purpose !== "query") counter.documents += texts.length;
      return inner.embed(texts, options);
    },
    embedOne: (text, options) => inner.embedOne(text, options),
  };
  return { provider, counter };
}

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-bench-collections-"));
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  try {
    const root = path.join(dir, "notes");
    let total = 0;
    for (let index = 0; index < NOTES; index++) {
      const folder = path.join(root, `area-${index % 50}`, `topic-${index % 7}`);
      mkdirSync(folder, { recursive: true });
      const text = note(index, noteSize());
      total += text.length;
      writeFileSync(path.join(folder, `note-${index}.md`), text);
    }
    console.log(
      `notes: ${NOTES}, ${(total / 1024 / 1024).toFixed(1)} MB (mean ${Math.round(total / NOTES)} bytes)`,
    );

    const { provider, counter } = countingEmbedder(createTestEmbedder({ dimensions: 256 }));
    console.log(`backend: ${backend.label}`);
    const memory = backend.open(dir, "brain", provider);
    await memory.importEntries(
      Array.from({ length: MEMORIES }, (_, index) => ({
        key: `m-${index}`,
        content: sentence(15),
      })),
    );
    const queries = Array.from({ length: QUERIES }, () => `${word()} ${word()} ${word()}`);
    const recallP50 = async (options: RecallOptions = {}) => {
      const times: number[] = [];
      for (const query of queries) {
        const start = performance.now();
        await memory.recall(query, options);
        times.push(performance.now() - start);
      }
      return p50(times);
    };
    const before = await recallP50();
    await memory.flush({ timeoutMs: 600_000 });
    const memoryTexts = counter.documents;

    const definition = await addCollection(memory, { name: "notes", path: root });
    let start = performance.now();
    const initial = await syncCollection(memory, definition);
    await memory.flush({ timeoutMs: 3_600_000 }); // deferred embeddings count too
    const initialSeconds = (performance.now() - start) / 1000;
    const health = await memory.healthCheck();
    console.log(
      `initial index: ${initial.notes} notes, ${initial.fragments.written} fragments in ${initialSeconds.toFixed(1)} s = ${Math.round(initial.notes / initialSeconds)} notes/s, ${Math.round(initial.fragments.written / initialSeconds)} fragments/s (${counter.documents - memoryTexts} texts sent to the provider, ${health.pendingEmbeddings} still without a vector)`,
    );

    start = performance.now();
    const idle = await syncCollection(memory, definition);
    console.log(
      `sync, nothing changed: ${(performance.now() - start).toFixed(0)} ms (${idle.unchanged} unchanged)`,
    );

    const changed = path.join(root, "area-3", "topic-3", "note-3.md");
    writeFileSync(changed, `${note(3, 2000)}\n\nAn added paragraph about ${sentence(10)}\n`);
    const embeddedBefore = counter.documents;
    start = performance.now();
    const one = await syncCollection(memory, definition);
    await memory.flush({ timeoutMs: 60_000 });
    console.log(
      `sync, one note changed: ${(performance.now() - start).toFixed(0)} ms (${one.changed} changed, ${one.fragments.written} fragments written, ${one.fragments.reusedEmbeddings} kept embeddings, ${counter.documents - embeddedBefore} texts embedded)`,
    );

    const withCollection = await recallP50();
    const memoryOnly = await recallP50({ collections: false });
    // What the engine's own category filter costs on this store (collections: false uses one).
    const coreOnly = await recallP50({ categories: ["core"] });
    console.log(
      `recall p50 (${QUERIES} three-word queries, hybrid, ${MEMORIES} memories): before the collection ${before.toFixed(2)} ms; with it ${withCollection.toFixed(2)} ms; collections: false ${memoryOnly.toFixed(2)} ms; categories: ["core"] alone ${coreOnly.toFixed(2)} ms`,
    );
    await memory.close();
    clearInterval(sampler);
    console.log(`peak RSS: ${Math.round(peak / 1024 / 1024)} MB`);
  } finally {
    clearInterval(sampler);
    rmSync(dir, { recursive: true, force: true });
    await backend.cleanup();
  }
}

await main();
