/**
 * Reads the LoCoMo development split (../shared/eval/locomo/data/locomo10.json) into sessions to
 * replay and questions to ask, the way the kit's locomo.mjs does: dates parsed from
 * "1:56 pm on 8 May, 2023" (zone-less, read as UTC), a shared image's caption appended as
 * " [image: ...]", evidence ids repaired ("D8:6; D9:17", "D:11:26", "D30:05") or dropped.
 * Speaker A is the user, speaker B the assistant.
 */
import { readFileSync } from "node:fs";
import type { LoopConversation, LoopSession } from "./loop-session.js";

export const DEFAULT_LOCOMO_FILE = "/work/shared/eval/locomo/data/locomo10.json";

export interface LocomoQuestion {
  id: string;
  conversation: string;
  text: string;
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
  category: number;
  /** Evidence dia_ids, repaired; questions without any are not kept. */
  evidence: string[];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text?: string;
  blip_caption?: string;
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: { question: string; evidence?: unknown[]; category: number }[];
}

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

export function parseLocomoDate(text: string): Date | undefined {
  const match =
    /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(text);
  if (!match) return undefined;
  const [, hour, minute, half, day, month, year] = match as unknown as string[];
  const monthIndex = MONTHS.indexOf(String(month).toLowerCase());
  if (monthIndex < 0) return undefined;
  const hours = (Number(hour) % 12) + (String(half).toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(year), monthIndex, Number(day), hours, Number(minute)));
}

function repairEvidence(raw: unknown[] | undefined, valid: Set<string>): string[] {
  const ids: string[] = [];
  for (const item of raw ?? []) {
    for (const token of String(item)
      .split(/[;,\s]+/)
      .filter(Boolean)) {
      const match = /^D:?(\d+):(\d+)$/.exec(token);
      if (!match) continue;
      const id = `D${Number(match[1])}:${Number(match[2])}`;
      if (valid.has(id) && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

function turnText(turn: RawTurn): string {
  const caption = turn.blip_caption ? ` [image: ${turn.blip_caption}]` : "";
  return `${turn.text ?? ""}${caption}`;
}

export interface LocomoSplit {
  conversations: LoopConversation[];
  questions: LocomoQuestion[];
}

export function loadLocomo(file: string = DEFAULT_LOCOMO_FILE): LocomoSplit {
  const samples = JSON.parse(readFileSync(file, "utf8")) as RawSample[];
  const conversations: LoopConversation[] = [];
  const questions: LocomoQuestion[] = [];
  for (const sample of samples) {
    const raw = sample.conversation;
    const numbers = Object.keys(raw)
      .map((key) => /^session_(\d+)$/.exec(key))
      .filter((match): match is RegExpExecArray => match !== null && Array.isArray(raw[match[0]]))
      .map((match) => Number(match[1]))
      .sort((a, b) => a - b);
    const sessions: LoopSession[] = [];
    for (const n of numbers) {
      const date = parseLocomoDate(String(raw[`session_${n}_date_time`] ?? ""));
      if (!date) throw new Error(`${sample.sample_id} session ${n}: its date does not parse`);
      sessions.push({
        id: `${sample.sample_id}/session_${n}`,
        date,
        messages: (raw[`session_${n}`] as RawTurn[]).map((turn) => ({
          role: turn.speaker === raw.speaker_a ? "user" : "assistant",
          text: turnText(turn),
          origin: turn.dia_id,
        })),
      });
    }
    const last = sessions.at(-1);
    if (!last) continue;
    conversations.push({ id: sample.sample_id, sessions, askedAt: last.date });
    const valid = new Set(sessions.flatMap((session) => session.messages.map((m) => m.origin)));
    sample.qa.forEach((qa, index) => {
      const evidence = repairEvidence(qa.evidence, valid);
      if (evidence.length === 0) return;
      questions.push({
        id: `${sample.sample_id}/q${index}`,
        conversation: sample.sample_id,
        text: String(qa.question),
        category: qa.category,
        evidence,
      });
    });
  }
  return { conversations, questions };
}
