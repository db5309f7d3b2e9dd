import {
  LOCOMO_CATEGORIES,
  type LocomoConversation,
  type LocomoTurn,
  turnText,
} from "@memory/lifecycle/agent-loop-eval";
import type { EvalDataset, EvalMemory, EvalQuestion } from "./eval-dataset.js";

// The LoCoMo file is read by the repository's one reader (`@memory/lifecycle/agent-loop-eval`,
// which follows the kit's `locomo.mjs` rule for rule); this file makes the kit's memories of it
// (text, keys, sessions, dates), or `memory eval` would not reproduce the kit's numbers.

/** A turn's memory text, as the kit's `turnContent`: "<speaker>: <text>" plus the caption of a shared image. */
export function turnContent(turn: Pick<LocomoTurn, "speaker" | "text" | "caption">): string {
  return `${turn.speaker}: ${turnText(turn)}`;
}

/**
 * Turns LoCoMo conversations into a dataset: one namespace per conversation (its `sample_id`),
 * one memory per turn (key `<sample_id>/<dia_id>`, session `<sample_id>/session_<n>`, dated by
 * its session), one question per QA item that keeps at least one valid evidence id.
 */
export function locomoDataset(
  read: readonly LocomoConversation[],
  source: string,
  conversations?: readonly string[],
): EvalDataset {
  const memories: EvalMemory[] = [];
  const questions: EvalQuestion[] = [];
  let namespaces = 0;
  let skipped = 0;
  for (const conversation of read) {
    const namespace = conversation.id;
    if (conversations && !conversations.includes(namespace)) continue;
    namespaces += 1;
    for (const session of conversation.sessions) {
      const at = session.date?.toISOString();
      for (const turn of session.turns) {
        memories.push({
          key: `${namespace}/${turn.diaId}`,
          content: turnContent(turn),
          namespace,
          sessionId: session.id,
          ...(at ? { createdAt: at } : {}),
          // "core" never decays: LoCoMo turns are years old, and any other category would be
          // ranked by age (7-day half-life), not by relevance. The kit's adapter does the same.
          category: "core",
          origin: `${namespace} ${turn.diaId}`,
        });
      }
    }
    skipped += conversation.skippedWithoutEvidence;
    for (const question of conversation.questions) {
      questions.push({
        id: question.id,
        text: question.text,
        namespace,
        category: question.category,
        expected: question.evidence.map((id) => `${namespace}/${id}`),
      });
    }
  }
  return {
    format: "locomo",
    sources: [source],
    memories,
    questions,
    // As the kit: category 5 (adversarial) is reported on its own, not in overall.
    inOverall: (category) => category !== 5,
    categoryNames: LOCOMO_CATEGORIES,
    stats: {
      namespaces,
      memories: memories.length,
      questions: questions.length,
      skippedWithoutEvidence: skipped,
    },
  };
}
