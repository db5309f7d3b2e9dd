import { performance } from "node:perf_hooks";
import type { ImportEntry, ImportRejection, Memory } from "@memory/api";
import type { EvalDataset, EvalQuestion } from "./eval-dataset.js";
import { type QuestionScores, scoreQuestion } from "./eval-scorer.js";

/** One question's outcome. */
export interface QuestionResult extends QuestionScores {
  id: string;
  namespace: string;
  category: string | number;
  question: string;
  expected: string[];
  /** The keys recall returned, best first (at most the limit). */
  keys: string[];
  latency_ms: number;
}

export interface EvalRun {
  results: QuestionResult[];
  imported: number;
  rejected: (ImportRejection & { origin: string })[];
  /** Import, embedding included. */
  ingestMs: number;
  /** Sum of the recall latencies. */
  recallMs: number;
  /** True when a signal stopped the run before the last question. */
  interrupted: boolean;
}

export interface RunEvalOptions {
  limit: number;
  mode?: "hybrid" | "bm25" | "embedding" | undefined;
  signal: AbortSignal;
  onImportProgress?: (done: number, total: number) => void;
  /** Every memory is stored and embedded; the questions come next. */
  onIngested?: () => void;
  onQuestion?: (done: number, total: number) => void;
}

// SQLite work inside a promise never returns to the event loop by itself, so a SIGINT would wait
// for the whole run; one turn of the loop between steps lets its handler abort in time.
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function entryOf(memory: EvalDataset["memories"][number]): ImportEntry {
  return {
    key: memory.key,
    content: memory.content,
    namespace: memory.namespace,
    ...(memory.sessionId ? { sessionId: memory.sessionId } : {}),
    category: memory.category,
    ...(memory.createdAt ? { createdAt: memory.createdAt, updatedAt: memory.createdAt } : {}),
  };
}

/**
 * Ingests the dataset and asks every question, the way the project's LoCoMo kit adapter
 * (packages/sqlite/bench/locomo-adapter.mjs) does, so the numbers are the kit's: every memory
 * in one `importEntries` call, in input order (the order breaks ties between equal scores);
 * then `recall(question, { namespace, limit, minScore: 0, mode })`, one question at a time, in
 * input order. `minScore: 0`: the ranking is what is measured, not the threshold.
 */
export async function runEval(
  memory: Memory,
  dataset: EvalDataset,
  options: RunEvalOptions,
): Promise<EvalRun> {
  const started = performance.now();
  const total = dataset.memories.length;
  const report = await memory.importEntries(dataset.memories.map(entryOf), {
    signal: options.signal,
    onProgress: ({ done }) => options.onImportProgress?.(done, total),
  });
  await yieldToEventLoop();
  const rejected = report.rejected.map((rejection) => ({
    ...rejection,
    origin: dataset.memories[rejection.index]?.origin ?? `entry ${rejection.index}`,
  }));
  if (report.interrupted || options.signal.aborted) {
    return {
      results: [],
      imported: report.imported,
      rejected,
      ingestMs: performance.now() - started,
      recallMs: 0,
      interrupted: true,
    };
  }
  // Import embeds inline (defer_embedding is off in the temporary store); flush and backfill
  // cover a provider call that failed during the import, as the kit's adapter does.
  await memory.flush({ timeoutMs: 600_000 });
  if ((await memory.healthCheck()).pendingEmbeddings > 0) await memory.backfillEmbeddings();
  const ingestMs = performance.now() - started;
  options.onImportProgress?.(total, total);
  options.onIngested?.();

  const results: QuestionResult[] = [];
  let recallMs = 0;
  for (const question of dataset.questions) {
    await yieldToEventLoop();
    if (options.signal.aborted) break;
    const result = await ask(memory, question, options);
    recallMs += result.latency_ms;
    results.push(result);
    options.onQuestion?.(results.length, dataset.questions.length);
  }
  return {
    results,
    imported: report.imported,
    rejected,
    ingestMs,
    recallMs,
    interrupted: results.length < dataset.questions.length,
  };
}

async function ask(
  memory: Memory,
  question: EvalQuestion,
  options: RunEvalOptions,
): Promise<QuestionResult> {
  const started = performance.now();
  const entries = await memory.recall(question.text, {
    namespace: question.namespace,
    limit: options.limit,
    minScore: 0,
    // A benchmark is not an agent: its recalls teach the store nothing.
    track: false,
    ...(options.mode ? { mode: options.mode } : {}),
  });
  const latency = performance.now() - started;
  const keys = entries.map((entry) => entry.key);
  return {
    id: question.id,
    namespace: question.namespace,
    category: question.category,
    question: question.text,
    expected: question.expected,
    keys: keys.slice(0, options.limit),
    latency_ms: latency,
    ...scoreQuestion(question.expected, keys, options.limit),
  };
}
