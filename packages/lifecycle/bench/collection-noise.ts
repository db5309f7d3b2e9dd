/**
 * Noise resistance of recall with a collection present (issue 26): the LoCoMo development split
 * stored as memory (one namespace per conversation, one core entry per turn, keyed by dia_id, as
 * the LoCoMo adapter does), recalled for every answerable question; then the same again with a
 * collection of unrelated notes in the same namespace: the OTHER conversations' sessions written
 * as Markdown notes (same style and vocabulary, other people's lives), indexed by
 * `syncCollections`. Recall searches memory and collections together by default, so this is
 * what a user with a notes folder gets.
 *
 *   pnpm --filter @memory/lifecycle bench:collection-noise [-- --embedder local|none]
 *     [--backend sqlite|postgres] [--postgres-url <url>]   (bench-backend.ts)
 *
 * Prints R@5, R@10 (any evidence turn among the first k) and MRR without and with the
 * collection, and the share of the first 5 results that are notes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { EmbeddingProvider, Memory, MemoryEntry } from "@memory/api";
import { loadLocomo } from "../src/agent-loop-eval/locomo-data.js";
import type { LoopConversation } from "../src/agent-loop-eval/loop-session.js";
import { addCollection, syncCollections } from "../src/index.js";
import { BACKEND_OPTIONS, benchBackend } from "./bench-backend.js";

interface Scores {
  questions: number;
  r5: number;
  r10: number;
  mrr: number;
  notesInTop5: number;
}

const { values } = parseArgs({
  options: { embedder: { type: "string", default: "none" }, ...BACKEND_OPTIONS },
});
const backend = benchBackend(values);

async function embedderFor(name: string): Promise<EmbeddingProvider | undefined> {
  if (name === "none") return undefined;
  if (name !== "local") throw new Error(`--embedder must be local or none, not "${name}"`);
  const { createLocalEmbeddings } = await import("@memory/embeddings/local");
  return createLocalEmbeddings();
}

/** The other conversations' sessions as notes: a heading, then one paragraph per turn. */
function writeNoise(folder: string, others: readonly LoopConversation[]): number {
  let notes = 0;
  for (const other of others) {
    for (const session of other.sessions) {
      const lines = [`# ${other.id} ${session.id}`, ""];
      for (const message of session.messages) lines.push(message.text, "");
      const file = `${session.id}`.replace(/[^\w-]+/gu, "-");
      writeFileSync(path.join(folder, `${file}.md`), lines.join("\n"));
      notes++;
    }
  }
  return notes;
}

async function score(
  memory: Memory,
  conversation: string,
  questions: { text: string; evidence: string[] }[],
  into: Scores,
): Promise<void> {
  for (const question of questions) {
    const found: MemoryEntry[] = await memory.recall(question.text, {
      namespace: conversation,
      limit: 10,
      minScore: 0,
    });
    const rank = found.findIndex((entry) => question.evidence.includes(entry.key));
    into.questions++;
    if (rank >= 0 && rank < 5) into.r5++;
    if (rank >= 0) into.r10++;
    if (rank >= 0) into.mrr += 1 / (rank + 1);
    into.notesInTop5 += found.slice(0, 5).filter((entry) => entry.source?.collection).length;
  }
}

const row = (label: string, s: Scores) =>
  `| ${label} | ${s.questions} | ${((100 * s.r5) / s.questions).toFixed(1)} | ${((100 * s.r10) / s.questions).toFixed(1)} | ${(s.mrr / s.questions).toFixed(3)} | ${((100 * s.notesInTop5) / (5 * s.questions)).toFixed(1)}% |`;

async function main(): Promise<void> {
  // The development split of the LoCoMo kit, as the agent-loop benchmark reads it.
  const split = loadLocomo("/work/shared/eval/locomo/data/locomo10.json");
  const embedder = await embedderFor(values.embedder ?? "none");
  const dir = mkdtempSync(path.join(tmpdir(), "memory-collection-noise-"));
  const without: Scores = { questions: 0, r5: 0, r10: 0, mrr: 0, notesInTop5: 0 };
  const withNotes: Scores = { ...without };
  let noteCount = 0;
  try {
    for (const conversation of split.conversations) {
      const memory = backend.open(dir, conversation.id, embedder);
      try {
        const entries = conversation.sessions.flatMap((session) =>
          session.messages.map((message) => ({
            key: message.origin,
            content: message.text,
            category: "core",
            namespace: conversation.id,
            sessionId: session.id,
          })),
        );
        await memory.importEntries(entries);
        const questions = split.questions.filter(
          (question) => question.conversation === conversation.id && question.category <= 4,
        );
        await score(memory, conversation.id, questions, without);
        const folder = path.join(dir, `${conversation.id}-notes`);
        mkdirSync(folder);
        const others = split.conversations.filter((other) => other.id !== conversation.id);
        noteCount += writeNoise(folder, others);
        await addCollection(memory, { name: "notes", path: folder, namespace: conversation.id });
        await syncCollections(memory);
        await score(memory, conversation.id, questions, withNotes);
      } finally {
        await memory.close();
      }
    }
  } finally {
    await (embedder as { close?: () => Promise<void> } | undefined)?.close?.();
    rmSync(dir, { recursive: true, force: true });
    await backend.cleanup();
  }
  console.log(
    `\nLoCoMo dev, ${split.conversations.length} conversations, backend ${backend.label}, embedder ${values.embedder}; notes: the other conversations' sessions (${noteCount} notes in all)\n`,
  );
  console.log("| store | questions | R@5 | R@10 | MRR | notes among the first 5 |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(row("memory only", without));
  console.log(row("memory + unrelated notes", withNotes));
}

await main();
