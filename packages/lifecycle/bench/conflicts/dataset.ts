/**
 * The labelled conflict benchmark of issue 24: pairs (pairs.jsonl) and a long-store scenario
 * (scenario.json), with the schemas both the runner and the dataset test read them through.
 * Every sentence was written for this set; see README.md for how labels were decided.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

/** The failure classes of issue 24, one per kind of mistake conflict detection can make. */
export const PAIR_CLASSES = [
  "possessive",
  "subject-trap",
  "additive",
  "multi-valued",
  "natural-update",
  "short-value",
  "negation",
  "crowded",
  "unrelated",
  "paraphrase",
] as const;
export type PairClass = (typeof PAIR_CLASSES)[number];

/**
 * `dev` tunes the rules, `check` shows whether they generalise to other names and vocabulary,
 * `holdout` (pairs-holdout.jsonl) was written blind, by an author who never saw the rules or the
 * other pairs, and is never tuned on: it estimates what a user's own facts would score.
 */
export const SPLITS = ["dev", "check", "holdout", "blind"] as const;
export type Split = (typeof SPLITS)[number];

const text = z.string().trim().min(1);

export const conflictPairSchema = z.strictObject({
  id: z.string().regex(/^[a-z-]+-(dev|check|holdout|blind)-\d{2}$/),
  class: z.enum(PAIR_CLASSES),
  split: z.enum(SPLITS),
  /** Facts stored before `old` (other people's facts in the `crowded` class). */
  before: z.array(text).optional(),
  old: text,
  new: text,
  /** Whether storing `new` should mark `old` superseded. */
  expect: z.enum(["supersede", "keep"]),
  note: text,
});
export type ConflictPair = z.infer<typeof conflictPairSchema>;

const key = z.string().regex(/^[a-z0-9-]+$/);

export const scenarioSchema = z.strictObject({
  description: text,
  /** Stored one by one, in this order, as core entries; none of them should supersede another. */
  facts: z.array(z.strictObject({ key, about: text, content: text })),
  /** Stored after the facts; each names the facts it should supersede (none for additive ones). */
  updates: z.array(z.strictObject({ key, content: text, supersedes: z.array(key) })),
  /** Asked after the updates: recall's first result should be `expectKey`, the current fact. */
  questions: z.array(z.strictObject({ query: text, expectKey: key })),
});
export type Scenario = z.infer<typeof scenarioSchema>;

const here = (name: string) => new URL(`./${name}`, import.meta.url);

/** The pairs of every split, validated line by line (a bad line names its file and number). */
export function loadConflictBenchPairs(): ConflictPair[] {
  return ["pairs.jsonl", "pairs-holdout.jsonl", "pairs-blind.jsonl"].flatMap((file) =>
    readFileSync(here(file), "utf8")
      .split("\n")
      .flatMap((line, index) => {
        if (line.trim() === "") return [];
        const parsed = conflictPairSchema.safeParse(JSON.parse(line));
        if (!parsed.success) {
          throw new Error(`${file} line ${index + 1}: ${z.prettifyError(parsed.error)}`);
        }
        return [parsed.data];
      }),
  );
}

export function loadConflictBenchScenario(): Scenario {
  return scenarioSchema.parse(JSON.parse(readFileSync(here("scenario.json"), "utf8")));
}
