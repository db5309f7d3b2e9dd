import type { EvalDataset, EvalMemory, EvalQuestion } from "./eval-dataset.js";

// The functions of this file copy the LoCoMo kit's `locomo.mjs` (parseLocomoDate, turnContent,
// normalizeEvidence, loadLocomo) rule for rule: the memories' text, keys and sessions and the
// questions' evidence must be the kit's, or `memory eval` would not reproduce its numbers.

/** LoCoMo's category ids (LoCoMo's task_eval/evaluation.py). */
export const LOCOMO_CATEGORIES: Record<string, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

interface LocomoTurn {
  speaker?: unknown;
  dia_id?: unknown;
  text?: unknown;
  blip_caption?: unknown;
}

interface LocomoQa {
  question?: unknown;
  evidence?: unknown;
  category?: unknown;
}

export interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: LocomoQa[];
}

/** "1:56 pm on 8 May, 2023" -> "2023-05-08T13:56:00" (no zone), or undefined. */
export function parseLocomoDate(value: unknown): string | undefined {
  const match =
    /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(
      String(value || ""),
    );
  if (!match) return undefined;
  let hours = Number(match[1]) % 12;
  if (match[3]!.toLowerCase() === "pm") hours += 12;
  const month = MONTHS.indexOf(match[5]!.toLowerCase());
  if (month < 0) return undefined;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${match[6]}-${pad(month + 1)}-${pad(Number(match[4]))}T${pad(hours)}:${match[2]}:00`;
}

/**
 * A naive LoCoMo time read as UTC, in the stores' form ("2023-05-08T13:56:00.000Z"), as the
 * project's kit adapter does: LoCoMo dates have no zone, and UTC keeps their order.
 */
export function locomoTimeToIso(naive: string | undefined): string | undefined {
  if (!naive) return undefined;
  const time = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(naive) ? naive : `${naive}Z`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** A turn's memory text: "<speaker>: <text>" plus the caption of a shared image. */
export function turnContent(turn: LocomoTurn): string {
  let content = `${turn.speaker}: ${turn.text ?? ""}`;
  if (turn.blip_caption) content += ` [image: ${turn.blip_caption}]`;
  return content;
}

/**
 * A question's evidence as valid dialog ids of its conversation. Repairs the known defects of
 * locomo10.json ("D8:6; D9:17", "D:11:26", "D30:05") and drops ids that name no turn.
 */
export function normalizeEvidence(raw: unknown, validIds: ReadonlySet<string>): string[] {
  const ids: string[] = [];
  for (const item of Array.isArray(raw) ? raw : []) {
    for (const token of String(item)
      .split(/[;,\s]+/)
      .filter(Boolean)) {
      const match = /^D:?(\d+):(\d+)$/.exec(token);
      if (!match) continue;
      const id = `D${Number(match[1])}:${Number(match[2])}`;
      if (validIds.has(id) && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/** True for what the LoCoMo loader reads: an array of `{ conversation, qa }` objects. */
export function isLocomoDocument(document: unknown): document is LocomoSample[] {
  return (
    Array.isArray(document) &&
    document.length > 0 &&
    document.every(
      (sample) =>
        typeof sample === "object" &&
        sample !== null &&
        typeof (sample as LocomoSample).conversation === "object" &&
        (sample as LocomoSample).conversation !== null &&
        Array.isArray((sample as LocomoSample).qa),
    )
  );
}

/**
 * Turns LoCoMo samples into a dataset: one namespace per conversation (its `sample_id`), one
 * memory per turn (key `<sample_id>/<dia_id>`, session `<sample_id>/session_<n>`, dated by its
 * session), one question per QA item that keeps at least one valid evidence id.
 */
export function locomoDataset(
  samples: readonly LocomoSample[],
  source: string,
  conversations?: readonly string[],
): EvalDataset {
  const memories: EvalMemory[] = [];
  const questions: EvalQuestion[] = [];
  let namespaces = 0;
  let skipped = 0;
  for (const sample of samples) {
    const namespace = sample.sample_id;
    if (conversations && !conversations.includes(namespace)) continue;
    namespaces += 1;
    const conversation = sample.conversation;
    const sessions = Object.keys(conversation)
      .map((name) => /^session_(\d+)$/.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .filter((match) => Array.isArray(conversation[match[0]]))
      .map((match) => Number(match[1]))
      .sort((a, b) => a - b);
    const validIds = new Set<string>();
    for (const session of sessions) {
      const at = locomoTimeToIso(parseLocomoDate(conversation[`session_${session}_date_time`]));
      for (const turn of conversation[`session_${session}`] as LocomoTurn[]) {
        validIds.add(String(turn.dia_id));
        memories.push({
          key: `${namespace}/${turn.dia_id}`,
          content: turnContent(turn),
          namespace,
          sessionId: `${namespace}/session_${session}`,
          ...(at ? { createdAt: at } : {}),
          // "core" never decays: LoCoMo turns are years old, and any other category would be
          // ranked by age (7-day half-life), not by relevance. The kit's adapter does the same.
          category: "core",
          origin: `${namespace} ${turn.dia_id}`,
        });
      }
    }
    sample.qa.forEach((qa, index) => {
      const evidence = normalizeEvidence(qa.evidence, validIds);
      if (evidence.length === 0) {
        skipped += 1;
        return;
      }
      questions.push({
        id: `${namespace}/q${index}`,
        text: String(qa.question),
        namespace,
        category: qa.category as number,
        expected: evidence.map((id) => `${namespace}/${id}`),
      });
    });
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
