/**
 * The two data sets of the throughput benchmark: real conversational turns (LoCoMo) with their
 * questions as queries, and the synthetic Zipf-vocabulary set of server-bench.ts.
 */
import { existsSync, readFileSync } from "node:fs";

export interface BenchSet {
  name: string;
  rows: { key: string; content: string }[];
  /** Recall and context queries, used in turn. */
  queries: string[];
  /** Contents for new entries (the store operation), used in turn. */
  newContents: string[];
}

/** Where the LoCoMo development split is on the project's machines (BENCH_LOCOMO_FILE wins). */
export const DEFAULT_LOCOMO_FILE = "/work/shared/eval/locomo/data/locomo10.json";

interface LocomoSample {
  sample_id?: string;
  conversation: Record<string, unknown>;
  qa?: { question?: string }[];
}

/**
 * Every turn of every conversation in the file as `Speaker: text`, keyed `<sample>/<dia_id>`,
 * and every question as a query. Throws, saying what to set, when the file is missing.
 */
export function locomoSet(file = process.env.BENCH_LOCOMO_FILE ?? DEFAULT_LOCOMO_FILE): BenchSet {
  if (!existsSync(file)) {
    throw new Error(
      `The LoCoMo data file ${file} does not exist: set BENCH_LOCOMO_FILE to a locomo10.json (snap-research/LoCoMo), or BENCH_SETS=synthetic.`,
    );
  }
  const samples = JSON.parse(readFileSync(file, "utf8")) as LocomoSample[];
  const rows: BenchSet["rows"] = [];
  const queries: string[] = [];
  samples.forEach((sample, index) => {
    const id = sample.sample_id ?? `conv-${index}`;
    for (const [name, value] of Object.entries(sample.conversation)) {
      if (!/^session_\d+$/.test(name) || !Array.isArray(value)) continue;
      for (const turn of value as { speaker: string; dia_id: string; text: string }[]) {
        rows.push({ key: `${id}/${turn.dia_id}`, content: `${turn.speaker}: ${turn.text}` });
      }
    }
    for (const qa of sample.qa ?? []) if (qa.question) queries.push(qa.question);
  });
  // New entries are real turns too (stored again under new keys), so store indexes real text.
  return { name: "locomo", rows, queries, newContents: rows.map((row) => row.content) };
}

/**
 * Deterministic synthetic text: a 2,000-word vocabulary drawn Zipf-like (low indexes much more
 * frequent, as in real text), from its own seeded stream, so every caller sees the same words.
 */
export function syntheticText(): { word(): string; sentence(length: number): string } {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const words = Array.from({ length: 2000 }, (_, i) => {
    const letters = "abcdefghijklmnopqrstuvwxyz";
    let word = "";
    let n = i + 27;
    while (n > 0) {
      word += letters[n % 26];
      n = Math.floor(n / 26);
    }
    return `${word}${i % 7 === 0 ? "ing" : ""}`;
  });
  const word = () => words[Math.floor(words.length * random() ** 3)]!;
  return { word, sentence: (length) => Array.from({ length }, word).join(" ") };
}

/** server-bench.ts's data: {@link syntheticText} sentences and three-word queries. */
export function syntheticSet(entries: number): BenchSet {
  const { word, sentence } = syntheticText();
  const rows = Array.from({ length: entries }, (_, i) => ({
    key: `seed-${i}`,
    content: sentence(12 + (i % 20)),
  }));
  const queries = Array.from({ length: 4096 }, () => `${word()} ${word()} ${word()}`);
  const newContents = Array.from({ length: 4096 }, () => sentence(20));
  return { name: `synthetic-${entries}`, rows, queries, newContents };
}
