/**
 * The one LoCoMo reader of the repository (the agent-loop evaluation here, `memory eval` in the
 * CLI). It reads a file the way the LoCoMo kit's locomo.mjs does, rule for rule, so that
 * `memory eval` reproduces the kit's numbers: sessions are the `session_<n>` arrays in numeric
 * order, dates parse from "1:56 pm on 8 May, 2023" (zone-less, read as UTC), a turn keeps its
 * speaker, text and shared image's caption, and evidence ids are repaired ("D8:6; D9:17",
 * "D:11:26", "D30:05") or dropped; a question left without evidence is counted, not kept.
 * What a turn becomes (a memory's text, a message of the loop) is the caller's business.
 */
import { readFileSync } from "node:fs";
import type { LoopConversation } from "./loop-session.js";

/** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial (LoCoMo's evaluation.py). */
export const LOCOMO_CATEGORIES: Record<string, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};

export interface LocomoQuestion {
  /** `<sample_id>/q<index in qa>`. */
  id: string;
  conversation: string;
  text: string;
  /** As the file has it (the kit does not check it); 1-5 in LoCoMo. */
  category: number;
  /** Evidence dia_ids, repaired; never empty. */
  evidence: string[];
}

export interface LocomoTurn {
  diaId: string;
  speaker: string;
  text: string;
  /** The caption of a shared image (`blip_caption`), when there is one. */
  caption?: string;
}

export interface LocomoSession {
  /** `<sample_id>/session_<n>`. */
  id: string;
  number: number;
  /** Undefined when `session_<n>_date_time` does not parse. */
  date: Date | undefined;
  turns: LocomoTurn[];
}

export interface LocomoConversation {
  /** `sample_id`. */
  id: string;
  speakers: { a: string; b: string };
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
  /** QA items left out because no valid evidence id remained (the kit skips them too). */
  skippedWithoutEvidence: number;
}

/** The raw shape `isLocomoDocument` accepts. */
export interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question?: unknown; evidence?: unknown; category?: unknown }[];
}

interface RawTurn {
  speaker?: unknown;
  dia_id?: unknown;
  text?: unknown;
  blip_caption?: unknown;
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

/** "1:56 pm on 8 May, 2023" -> "2023-05-08T13:56:00" (no zone), or undefined. */
export function parseLocomoDate(value: unknown): string | undefined {
  const match =
    /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(
      String(value || ""),
    );
  if (!match) return undefined;
  const [, hour, minute, half, day, monthName, year] = match as unknown as string[];
  let hours = Number(hour) % 12;
  if (String(half).toLowerCase() === "pm") hours += 12;
  const month = MONTHS.indexOf(String(monthName).toLowerCase());
  if (month < 0) return undefined;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${year}-${pad(month + 1)}-${pad(Number(day))}T${pad(hours)}:${minute}:00`;
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

/** True for what the LoCoMo reader reads: a non-empty array of `{ conversation, qa }` objects. */
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

function readTurn(turn: RawTurn): LocomoTurn {
  // Template coercion, as the kit's `${turn.speaker}: ${turn.text ?? ""}`.
  return {
    diaId: String(turn.dia_id),
    speaker: `${turn.speaker}`,
    text: `${turn.text ?? ""}`,
    ...(turn.blip_caption ? { caption: `${turn.blip_caption}` } : {}),
  };
}

/** One sample (conversation) of a document `isLocomoDocument` accepted. */
export function readLocomoSample(sample: LocomoSample): LocomoConversation {
  const raw = sample.conversation;
  const id = sample.sample_id;
  const sessions: LocomoSession[] = Object.keys(raw)
    .map((name) => /^session_(\d+)$/.exec(name))
    .filter((match): match is RegExpExecArray => match !== null && Array.isArray(raw[match[0]]))
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b)
    .map((number) => {
      const iso = locomoTimeToIso(parseLocomoDate(raw[`session_${number}_date_time`]));
      return {
        id: `${id}/session_${number}`,
        number,
        date: iso === undefined ? undefined : new Date(iso),
        turns: (raw[`session_${number}`] as RawTurn[]).map(readTurn),
      };
    });
  const validIds = new Set(sessions.flatMap((session) => session.turns.map((t) => t.diaId)));
  const questions: LocomoQuestion[] = [];
  let skippedWithoutEvidence = 0;
  sample.qa.forEach((qa, index) => {
    const evidence = normalizeEvidence(qa.evidence, validIds);
    if (evidence.length === 0) {
      skippedWithoutEvidence += 1;
      return;
    }
    questions.push({
      id: `${id}/q${index}`,
      conversation: id,
      text: String(qa.question),
      category: qa.category as number,
      evidence,
    });
  });
  return {
    id,
    speakers: { a: `${raw.speaker_a}`, b: `${raw.speaker_b}` },
    sessions,
    questions,
    skippedWithoutEvidence,
  };
}

/** Thrown when a LoCoMo file cannot be replayed; the message names the file's defect. */
export class LocomoDataError extends Error {
  override name = "LocomoDataError";
}

/** Reads a parsed LoCoMo document; throws {@link LocomoDataError} when it is not one. */
export function readLocomo(document: unknown): LocomoConversation[] {
  if (!isLocomoDocument(document)) {
    throw new LocomoDataError(
      'not a LoCoMo file: expected a JSON array of conversations, each with "sample_id", "conversation" and "qa" (as snap-research/LoCoMo\'s locomo10.json)',
    );
  }
  const missingId = document.findIndex((sample) => typeof sample.sample_id !== "string");
  if (missingId >= 0) {
    throw new LocomoDataError(
      `conversation #${missingId + 1} has no "sample_id" string; LoCoMo conversations are named by it (e.g. "conv-26")`,
    );
  }
  return document.map(readLocomoSample);
}

/** A shared image's caption appended as " [image: ...]", as the kit does. */
export function turnText(turn: Pick<LocomoTurn, "text" | "caption">): string {
  return `${turn.text}${turn.caption === undefined ? "" : ` [image: ${turn.caption}]`}`;
}

/**
 * A conversation as the agent loop replays it: speaker A is the user, speaker B the assistant;
 * the questions come on the last session's date. Every session needs a date (the `dated` clock
 * runs it then), and a conversation without sessions has nothing to replay.
 */
export function loopConversation(conversation: LocomoConversation): LoopConversation {
  const sessions = conversation.sessions.map((session) => {
    if (session.date === undefined) {
      throw new LocomoDataError(
        `${session.id}: its session_${session.number}_date_time does not parse; give it as "1:56 pm on 8 May, 2023"`,
      );
    }
    return {
      id: session.id,
      date: session.date,
      messages: session.turns.map((turn) => ({
        role: turn.speaker === conversation.speakers.a ? ("user" as const) : ("assistant" as const),
        text: turnText(turn),
        origin: turn.diaId,
      })),
    };
  });
  const last = sessions.at(-1);
  if (!last) {
    throw new LocomoDataError(`${conversation.id} has no session_<n> array; nothing to replay`);
  }
  return { id: conversation.id, sessions, askedAt: last.date };
}

/** The agent loop's view of a LoCoMo file: conversations to replay, questions to ask. */
export interface LocomoSplit {
  conversations: LoopConversation[];
  questions: LocomoQuestion[];
  /** The speakers of each conversation (follow-up questions name them). */
  speakers: Map<string, LocomoConversation["speakers"]>;
}

export function locomoSplit(conversations: readonly LocomoConversation[]): LocomoSplit {
  return {
    conversations: conversations.map(loopConversation),
    questions: conversations.flatMap((conversation) => conversation.questions),
    speakers: new Map(conversations.map((c) => [c.id, c.speakers])),
  };
}

/** Reads a LoCoMo file for the agent loop (the benchmark's entry; the CLI reports its own errors). */
export function loadLocomo(file: string): LocomoSplit {
  return locomoSplit(readLocomo(JSON.parse(readFileSync(file, "utf8"))));
}
