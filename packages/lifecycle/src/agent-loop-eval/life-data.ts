/**
 * The scripted life of a user (life.json): sessions over six weeks, the user's facts and those of
 * the people around them, natural-language updates and contentless replies, plus questions that
 * name the current fact, its stale versions and other people's facts on the same attribute, each
 * as a substring of the user message that states it (matched case-insensitively in a context).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
// Bundled into the build, so the default scenario ships with the package (no file to locate).
import defaultScenario from "./life.json" with { type: "json" };
import type { LoopConversation } from "./loop-session.js";

const text = z.string().trim().min(1);
const isoDate = z.iso.datetime();

export const lifeTurnSchema = z.strictObject({
  id: text,
  user: text,
  assistant: text,
});

export const lifeQuestionSchema = z.strictObject({
  id: text,
  text,
  /** True when the fact changed during the six weeks (the questions the targets name). */
  changed: z.boolean(),
  current: text,
  stale: z.array(text),
  others: z.array(text),
});

export const lifeScenarioSchema = z.strictObject({
  description: text,
  askedAt: isoDate,
  sessions: z
    .array(z.strictObject({ id: text, date: isoDate, turns: z.array(lifeTurnSchema).min(1) }))
    .min(1),
  questions: z.array(lifeQuestionSchema).min(1),
});

export type LifeScenario = z.infer<typeof lifeScenarioSchema>;
export type LifeQuestion = z.infer<typeof lifeQuestionSchema>;

/** The scenario that ships with the package (Sam's six weeks), validated. */
export function defaultLifeScenario(): LifeScenario {
  return lifeScenarioSchema.parse(defaultScenario);
}

/**
 * A scenario file, or the default one. Throws zod's error for a file of the wrong shape (the
 * CLI turns it into a usage error naming the field).
 */
export function loadLifeScenario(file?: string): LifeScenario {
  if (file === undefined) return defaultLifeScenario();
  return lifeScenarioSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

/** The scenario as one conversation to replay; origins are `<turn id>` for both messages. */
export function lifeConversation(scenario: LifeScenario, id = "life"): LoopConversation {
  return {
    id,
    askedAt: new Date(scenario.askedAt),
    sessions: scenario.sessions.map((session) => ({
      id: `${id}/${session.id}`,
      date: new Date(session.date),
      messages: session.turns.flatMap((turn) => [
        { role: "user" as const, text: turn.user, origin: turn.id },
        { role: "assistant" as const, text: turn.assistant, origin: turn.id },
      ]),
    })),
  };
}

/** True when `entryText` holds `fact` (case-insensitive substring). */
export function mentions(entryText: string, fact: string): boolean {
  return entryText.toLowerCase().includes(fact.toLowerCase());
}
