#!/usr/bin/env node
// LoCoMo retrieval adapter: drives the kit's scorer (/work/shared/eval/locomo, external-command
// protocol) through the public API of the *built* packages. Run `pnpm exec turbo run build` first.
//
//   node packages/sqlite/bench/locomo-adapter.mjs CORPUS.jsonl QUERIES.jsonl > results.jsonl
//
// stdout: one {"qid","keys","latency_ms"} line per query, then one {"stats":{...}} line.
// stderr: logs. Nothing else may go to stdout: the harness parses every line of it.
//
// Environment (so a grid can be run from the shell):
//   LOCOMO_EMBEDDER   local (default: USE lite, on-device, no network) | noop (keyword only)
//   LOCOMO_MODE       hybrid | bm25 | embedding (unset: the library's default searchMode)
//   LOCOMO_BACKEND    sqlite (default) | markdown (@memory/markdown, imported from its build
//                     output; its tree in a temp directory)
//   LOCOMO_OPTIONS    JSON merged into createSqliteMemory() (createMarkdownMemory()) options,
//                     e.g. '{"mergeStrategy":"weighted","ftsEarlyReturnScore":1}'
//   LOCOMO_MIN_SCORE  recall minScore (default 0, so no default threshold hides results;
//                     "default" uses the library's min_score)
//   LOCOMO_CROSS      1: answer each question from the next conversation's namespace, which
//                     does not hold its answer (measures what the threshold lets through)
//   LOCOMO_ISOLATE    1: one store per namespace instead of one shared store (see below)
//   LOCOMO_OPAQUE_KEYS 1: store under "t<n>" and map back on output (diagnostic, see below)
//   LOCOMO_TOPK       set by the harness (default 20)
//   LOCOMO_EMBED_CACHE  a JSON file of vectors by purpose + text, read before and written after
//                     the run: a grid of configurations embeds the corpus once (tuning only;
//                     the vectors are the provider's own, so results are unchanged)

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
// Self-reference: this file lives inside @memory/sqlite, whose "exports" point at dist/.
import { createSqliteMemory } from "@memory/sqlite";

const [corpusPath, queriesPath] = process.argv.slice(2);
if (!corpusPath || !queriesPath) {
  process.stderr.write("usage: locomo-adapter.mjs CORPUS.jsonl QUERIES.jsonl\n");
  process.exit(2);
}
const log = (message) => process.stderr.write(`[locomo-adapter] ${message}\n`);
const readJsonl = (file) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));

const topK = Number(process.env.LOCOMO_TOPK || 20);
const embedderName = process.env.LOCOMO_EMBEDDER || "local";
const mode = process.env.LOCOMO_MODE || undefined;
const extraOptions = process.env.LOCOMO_OPTIONS ? JSON.parse(process.env.LOCOMO_OPTIONS) : {};
const minScoreSetting = process.env.LOCOMO_MIN_SCORE ?? "0";
const minScore = minScoreSetting === "default" ? undefined : Number(minScoreSetting);
const cross = process.env.LOCOMO_CROSS === "1";
// One store, one namespace per conversation: recall's BM25 statistics are per namespace, so the
// conversations share nothing (the kit's rule). LOCOMO_ISOLATE=1 gives each conversation its own
// store instead; the results are identical, which checks the isolation.
const isolate = process.env.LOCOMO_ISOLATE === "1";
// The key is an FTS5 column (bm25 weight 2): "conv-26/D17:12" indexes the tokens conv, 26, d17 and
// 12, so "... on October 13?" matches every 13th turn. Opaque keys measure what that costs.
const opaqueKeys = process.env.LOCOMO_OPAQUE_KEYS === "1";
const realKey = new Map(); // stored key -> corpus key (opaque mode only)
const backend = process.env.LOCOMO_BACKEND || "sqlite";
if (backend !== "sqlite" && backend !== "markdown")
  throw new Error(`LOCOMO_BACKEND=${backend}: expected sqlite or markdown`);
// @memory/markdown is not a dependency of @memory/sqlite: imported from its build output.
const createMarkdownMemory =
  backend === "markdown"
    ? (await import(new URL("../../markdown/dist/index.mjs", import.meta.url).href))
        .createMarkdownMemory
    : undefined;

// @memory/embeddings is not a dependency of @memory/sqlite, so it is imported by relative path
// from its build output (createLocalEmbeddings is in the "./local" entry, dist/local.mjs).
const embeddingsDist = new URL("../../embeddings/dist/", import.meta.url);
async function makeProvider() {
  if (embedderName === "noop") {
    const { createNoopEmbeddings } = await import(new URL("index.mjs", embeddingsDist).href);
    return createNoopEmbeddings();
  }
  if (embedderName === "local") {
    const { createLocalEmbeddings } = await import(new URL("local.mjs", embeddingsDist).href);
    return createLocalEmbeddings();
  }
  throw new Error(`LOCOMO_EMBEDDER=${embedderName}: expected local or noop`);
}

// Counts the time spent inside the provider's embed() during ingest (import embeds inline unless
// deferEmbedding is set, so a wall-clock split between "import" and "embed" would be misleading).
let embedMs = 0;
let counting = true;
const cacheFile = process.env.LOCOMO_EMBED_CACHE;
const vectorCache = new Map(
  cacheFile && fs.existsSync(cacheFile)
    ? Object.entries(JSON.parse(fs.readFileSync(cacheFile, "utf8")))
    : [],
);
let cacheGrew = false;
function timed(provider) {
  return new Proxy(provider, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if ((prop !== "embed" && prop !== "embedOne") || typeof value !== "function") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      if (prop === "embedOne") {
        return async (text, options) => (await timed(target).embed([text], options))[0];
      }
      return async (texts, options) => {
        const t = performance.now();
        try {
          const id = (text) => `${options?.purpose ?? "document"}\u0000${text}`;
          const missing = texts.filter((text) => !vectorCache.has(id(text)));
          if (missing.length > 0) {
            const fresh = await value.call(target, missing, options);
            missing.forEach((text, i) => {
              vectorCache.set(id(text), fresh[i]);
            });
            cacheGrew = true;
          }
          return texts.map((text) => vectorCache.get(id(text)));
        } finally {
          if (counting) embedMs += performance.now() - t;
        }
      };
    },
  });
}

// "2023-05-08T13:56:00" (naive) -> "2023-05-08T13:56:00.000Z", the library's storage form.
// LoCoMo dates have no zone; reading them as UTC keeps their order, which is all that matters.
function toIso(naive) {
  if (!naive) return undefined;
  const time = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(naive) ? naive : `${naive}Z`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

const corpus = readJsonl(corpusPath);
const queries = readJsonl(queriesPath);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "memory-locomo-"));
const provider = await makeProvider();
const stores = new Map(); // namespace (or "*" when shared) -> Memory
const storeId = (namespace) => (isolate ? namespace : "*");
const storeFor = (namespace) => {
  const id = storeId(namespace);
  if (!stores.has(id)) {
    stores.set(
      id,
      backend === "markdown"
        ? createMarkdownMemory({
            root: path.join(tmp, `${stores.size}`),
            embedder: timed(provider),
            ...(mode ? { searchMode: mode } : {}),
            ...extraOptions,
            logger: log,
          })
        : createSqliteMemory({
            path: path.join(tmp, `${stores.size}.db`),
            embedder: timed(provider),
            ...(mode ? { searchMode: mode } : {}),
            ...extraOptions,
            logger: log,
          }),
    );
  }
  return stores.get(id);
};

try {
  // Model load kept out of ingest_ms: it is a per-process cost, not a per-entry one.
  const tLoad = performance.now();
  if (typeof provider.init === "function") await provider.init();
  const modelLoadMs = performance.now() - tLoad;

  const tIngest = performance.now();
  // One bulk import per store: an import into an empty store rebuilds FTS once at the end.
  const batches = new Map(); // store id -> { namespace (any of the store's), entries }
  for (const line of corpus) {
    const id = storeId(line.namespace);
    if (!batches.has(id)) batches.set(id, { namespace: line.namespace, entries: [] });
    const at = toIso(line.timestamp_iso);
    const key = opaqueKeys ? `t${realKey.size}` : line.key;
    if (opaqueKeys) realKey.set(key, line.key);
    batches.get(id).entries.push({
      key,
      content: line.content,
      namespace: line.namespace,
      sessionId: line.session_id,
      // "core" never decays. LoCoMo turns are dated 2022-2023; any other category would be
      // multiplied by the 7-day half-life decay (years old -> ~0) and ranked by age, not relevance.
      category: "core",
      ...(at ? { createdAt: at, updatedAt: at } : {}),
    });
  }
  let imported = 0;
  for (const [id, { namespace, entries }] of batches) {
    const report = await storeFor(namespace).importEntries(entries);
    imported += report.imported;
    for (const r of report.rejected.slice(0, 5))
      log(`rejected ${r.key ?? r.index}: ${r.code} ${r.message}`);
    if (report.rejected.length) log(`store ${id}: ${report.rejected.length} entries rejected`);
  }
  const importMs = performance.now() - tIngest;
  // Import embeds inline; flush() covers deferEmbedding, backfill covers slices that failed.
  let pending = 0;
  for (const memory of stores.values()) {
    await memory.flush({ timeoutMs: 600_000 });
    const health = await memory.healthCheck();
    if (health.pendingEmbeddings > 0) {
      const job = await memory.backfillEmbeddings();
      log(`backfill: ${JSON.stringify(job)}`);
    }
    pending += (await memory.healthCheck()).pendingEmbeddings;
    if (health.vector.status !== "ok" && embedderName !== "noop") {
      log(`vector recall ${health.vector.status}: ${health.vector.reason}`);
    }
  }
  const ingestMs = performance.now() - tIngest;
  counting = false;
  log(
    `ingested ${imported}/${corpus.length} in ${ingestMs.toFixed(0)} ms (embed ${embedMs.toFixed(0)} ms, model load ${modelLoadMs.toFixed(0)} ms), ${pending} pending`,
  );

  const namespaces = [...new Set(corpus.map((line) => line.namespace))];
  const nextNamespace = (namespace) =>
    namespaces[(namespaces.indexOf(namespace) + 1) % namespaces.length];
  let answered = 0;
  const latencies = [];
  // How results were made (from each query's first result's explain): shows at a glance whether
  // the vector stage ran at all (early return, degraded) in a given configuration.
  const explain = { sources: {}, early_return: 0, degraded: {}, with_cosine: 0 };
  for (const q of queries) {
    const t = performance.now();
    const namespace = cross ? nextNamespace(q.namespace) : q.namespace;
    const results = await storeFor(namespace).recall(q.text, {
      namespace,
      limit: topK,
      ...(minScore === undefined ? {} : { minScore }),
      ...(mode ? { mode } : {}),
    });
    const dt = performance.now() - t;
    latencies.push(dt);
    if (results.length > 0) answered++;
    const keys = results.map((entry) => (opaqueKeys ? realKey.get(entry.key) : entry.key));
    const first = results[0]?.explain;
    if (first) {
      explain.sources[first.source] = (explain.sources[first.source] ?? 0) + 1;
      if (first.earlyReturn) explain.early_return++;
      if (first.degraded)
        explain.degraded[first.degraded] = (explain.degraded[first.degraded] ?? 0) + 1;
      if (results.some((entry) => entry.explain?.cosine !== undefined)) explain.with_cosine++;
    }
    if (process.env.LOCOMO_SCORES_FILE) {
      const scores = results.map((entry) => entry.score);
      fs.appendFileSync(
        process.env.LOCOMO_SCORES_FILE,
        `${JSON.stringify({ qid: q.qid, keys, scores })}\n`,
      );
    }
    process.stdout.write(`${JSON.stringify({ qid: q.qid, keys, latency_ms: dt })}\n`);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const q = (p) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
  const stats = {
    ingest_ms: ingestMs,
    import_ms: importMs,
    embed_ms: embedMs,
    model_load_ms: modelLoadMs,
    search_ms: latencies.reduce((a, b) => a + b, 0),
    queries: latencies.length,
    p50_ms: q(0.5),
    p95_ms: q(0.95),
    embedder: embedderName,
    mode: mode ?? "default",
    backend,
    options: extraOptions,
    min_score: minScore ?? "default",
    cross,
    answered,
    stores: stores.size,
    opaque_keys: opaqueKeys,
    pending_embeddings: pending,
    explain,
  };
  process.stdout.write(`${JSON.stringify({ stats })}\n`);
} finally {
  if (cacheFile && cacheGrew && embedderName !== "noop")
    fs.writeFileSync(cacheFile, JSON.stringify(Object.fromEntries(vectorCache)));
  for (const memory of stores.values()) await memory.close();
  if (typeof provider.close === "function") await provider.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
