/**
 * The usage replay benchmark (issue 28 item 4): does learning from use help the memory context
 * and recall, and what does it cost questions it never saw? On the LoCoMo development split:
 *
 * 1. Each conversation is replayed into a fresh store through the agent loop (replay.ts, dated
 *    clock), its contexts untracked, so that the only usage is what step 2 records.
 * 2. Training: half of the answerable questions (even positions), asked on three days in a row
 *    at the conversation's "today": each time through the memory context and top-5 recall,
 *    then feedback says the evidence shown was used and the rest ignored (what an agent that
 *    answers from the evidence would report, or `feedbackFromReply` would infer).
 * 3. Thirty days later: the trained questions again (`repeat`), their derived follow-ups
 *    (follow-ups.ts: opener, then the question with a pronoun: `follow-up`), and the other half,
 *    never asked (`fresh`: what usage must not cost).
 *
 * Variants (each on its own fresh stores): `baseline` (every factor off, the default),
 * `half-life` (`usage_half_life_factor` 2 and 4), `demotion` (the context's `usageDemotion`, 0.25
 * and 0.5).
 * Reported per bucket: evidence in the context (any), and evidence in recall's top 5 (any).
 *
 *   pnpm --filter @memory/lifecycle bench:usage-replay [--embedder none|local] [--locomo file]
 *
 * Not a test: it asserts nothing. docs/retrieval-quality.md records its numbers.
 */
import { parseArgs } from "node:util";
import type { Memory, MemoryEntry, MemorySettings } from "@memory/api";
import { createLocalEmbeddings } from "@memory/embeddings/local";
import { createInMemoryMemory } from "@memory/testkit";
import { benchNow, resetClock, setClock } from "../../src/agent-loop-eval/clock.js";
import { askFollowUp } from "../../src/agent-loop-eval/follow-up-measure.js";
import { deriveFollowUps } from "../../src/agent-loop-eval/follow-ups.js";
import { type LocomoQuestion, loadLocomo } from "../../src/agent-loop-eval/locomo-data.js";
import type { ContextSettings } from "../../src/agent-loop-eval/loop-session.js";
import type { EntryOrigins } from "../../src/agent-loop-eval/origins.js";
import { replayConversation } from "../../src/agent-loop-eval/replay.js";
import { buildMemoryContext } from "../../src/index.js";

const DAY = 86_400_000;
const { values } = parseArgs({
  options: {
    embedder: { type: "string", default: "none" },
    locomo: { type: "string", default: "/work/shared/eval/locomo/data/locomo10.json" },
  },
});

interface Variant {
  name: string;
  settings: Partial<MemorySettings>;
  context: ContextSettings;
}

const VARIANTS: Variant[] = [
  { name: "baseline", settings: {}, context: {} },
  { name: "half-life x2", settings: { usage_half_life_factor: 2 }, context: {} },
  { name: "half-life x4", settings: { usage_half_life_factor: 4 }, context: {} },
  { name: "demotion 0.25", settings: {}, context: { usageDemotion: 0.25 } },
  { name: "demotion 0.5", settings: {}, context: { usageDemotion: 0.5 } },
];

interface Tally {
  asked: number;
  context: number;
  top5: number;
}
type Buckets = Record<"repeat" | "followUp" | "fresh", Tally>;

const split = loadLocomo(values.locomo as string);
const embedder = values.embedder === "local" ? createLocalEmbeddings() : undefined;
const followUps = deriveFollowUps(split.questions, (id) => split.speakers.get(id)).followUps;

/** Keys of the entries whose origin is evidence of the question. */
function evidenceKeys(
  entries: readonly MemoryEntry[],
  question: LocomoQuestion,
  origins: EntryOrigins,
): string[] {
  const evidence = new Set(question.evidence);
  return entries
    .filter((entry) => evidence.has(origins.of(entry)?.origin ?? ""))
    .map((entry) => entry.key);
}

async function train(
  memory: Memory,
  namespace: string,
  question: LocomoQuestion,
  origins: EntryOrigins,
  context: ContextSettings,
): Promise<void> {
  const shown = await buildMemoryContext(memory, question.text, { ...context, namespace });
  const recalled = await memory.recall(question.text, { namespace, limit: 5, minScore: 0 });
  for (const [id, entries] of [
    [shown.recallId, shown.entries],
    [recalled.recallId, recalled],
  ] as const) {
    if (id === undefined) continue;
    const keys = entries.map((entry) => entry.key);
    const used = evidenceKeys(entries, question, origins);
    await memory.feedback({
      recallId: id,
      namespace,
      used,
      ignored: keys.filter((key) => !used.includes(key)),
    });
  }
}

async function measure(
  memory: Memory,
  namespace: string,
  question: LocomoQuestion,
  origins: EntryOrigins,
  context: ContextSettings,
): Promise<{ context: boolean; top5: boolean }> {
  const shown = await buildMemoryContext(memory, question.text, {
    ...context,
    namespace,
    track: false,
  });
  const top5 = await memory.recall(question.text, {
    namespace,
    limit: 5,
    minScore: 0,
    track: false,
  });
  const hit = (entries: readonly MemoryEntry[]) =>
    evidenceKeys(entries, question, origins).length > 0;
  return { context: hit(shown.entries), top5: hit(top5) };
}

async function runVariant(variant: Variant): Promise<Buckets> {
  const buckets: Buckets = {
    repeat: { asked: 0, context: 0, top5: 0 },
    followUp: { asked: 0, context: 0, top5: 0 },
    fresh: { asked: 0, context: 0, top5: 0 },
  };
  const quiet: ContextSettings = { ...variant.context, track: false };
  for (const conversation of split.conversations) {
    const memory = createInMemoryMemory({
      settings: variant.settings,
      now: benchNow,
      ...(embedder ? { embedder } : {}),
    });
    try {
      const { origins } = await replayConversation(memory, conversation, "dated", quiet);
      const answerable = split.questions.filter(
        (q) => q.conversation === conversation.id && q.category >= 1 && q.category <= 4,
      );
      const trained = answerable.filter((_, index) => index % 2 === 0);
      const fresh = answerable.filter((_, index) => index % 2 === 1);
      for (let day = 0; day < 3; day++) {
        setClock("dated", new Date(conversation.askedAt.getTime() + day * DAY));
        for (const question of trained)
          await train(memory, conversation.id, question, origins, variant.context);
      }
      setClock("dated", new Date(conversation.askedAt.getTime() + 30 * DAY));
      const count = (bucket: Tally, result: { context: boolean; top5: boolean }) => {
        bucket.asked++;
        if (result.context) bucket.context++;
        if (result.top5) bucket.top5++;
      };
      for (const question of trained)
        count(
          buckets.repeat,
          await measure(memory, conversation.id, question, origins, variant.context),
        );
      for (const question of fresh)
        count(
          buckets.fresh,
          await measure(memory, conversation.id, question, origins, variant.context),
        );
      const trainedIds = new Set(trained.map((q) => q.id));
      for (const followUp of followUps) {
        if (!trainedIds.has(followUp.questionId)) continue;
        const question = trained.find((q) => q.id === followUp.questionId)!;
        const answer = await askFollowUp(
          memory,
          conversation.id,
          followUp,
          question,
          origins,
          quiet,
        );
        buckets.followUp.asked++;
        if (answer.multiTurn.evidenceInContext > 0) buckets.followUp.context++;
      }
      console.error(`[usage-replay] ${variant.name}: ${conversation.id} done`);
    } finally {
      await memory.close();
      resetClock();
    }
  }
  return buckets;
}

const pct = (part: number, whole: number) =>
  whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
const rows: string[] = [];
for (const variant of VARIANTS) {
  const buckets = await runVariant(variant);
  const { repeat, followUp, fresh } = buckets;
  rows.push(
    `| ${variant.name} | ${pct(repeat.context, repeat.asked)} | ${pct(repeat.top5, repeat.asked)} | ${pct(followUp.context, followUp.asked)} | ${pct(fresh.context, fresh.asked)} | ${pct(fresh.top5, fresh.asked)} |`,
  );
  console.error(`[usage-replay] ${variant.name}: ${JSON.stringify(buckets)}`);
}
await embedder?.close();
console.log(`Usage replay, embedder ${values.embedder}, LoCoMo ${values.locomo}`);
console.log(
  "| variant | repeat: context | repeat: top 5 | follow-up: context | fresh: context | fresh: top 5 |",
);
console.log("|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
