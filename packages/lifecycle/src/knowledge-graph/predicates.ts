import { z } from "zod";

/**
 * The closed list of knowledge-graph predicates (docs/knowledge-graph.md). A short list keeps
 * the model's answers comparable across turns ("lives_in", never "resides_in" next to it), so a
 * new value can close the old one. `single`: a subject has one value at a time, and a new value
 * closes the old triple's validity; the others (likes, friend...) accumulate.
 */
export const PREDICATES = {
  lives_in: { single: true, meaning: "the city, region or country the subject lives in" },
  born_in: { single: true, meaning: "where the subject was born" },
  born_on: { single: true, meaning: "the subject's date of birth (YYYY-MM-DD when known)" },
  works_at: { single: true, meaning: "the organisation the subject works for" },
  works_as: { single: true, meaning: "the subject's job or role" },
  studies: { single: false, meaning: "a subject or school the subject studies" },
  spouse: { single: true, meaning: "the subject's husband or wife" },
  partner: { single: true, meaning: "the subject's romantic partner" },
  manager: { single: true, meaning: "the subject's manager at work" },
  sibling: { single: false, meaning: "a brother or sister of the subject" },
  parent: { single: false, meaning: "a parent of the subject" },
  child: { single: false, meaning: "a child of the subject" },
  friend: { single: false, meaning: "a friend of the subject" },
  colleague: { single: false, meaning: "a colleague of the subject" },
  member_of: { single: false, meaning: "a group, club or team the subject belongs to" },
  likes: { single: false, meaning: "something the subject likes or enjoys" },
  dislikes: { single: false, meaning: "something the subject dislikes" },
  owns: { single: false, meaning: "something the subject owns (a pet, a car...)" },
  plans: { single: false, meaning: "something the subject plans to do" },
  speaks: { single: false, meaning: "a language the subject speaks" },
} as const satisfies Record<string, { single: boolean; meaning: string }>;

export type Predicate = keyof typeof PREDICATES;

export const PREDICATE_NAMES = Object.keys(PREDICATES) as Predicate[];

export function isPredicate(name: string): name is Predicate {
  return Object.hasOwn(PREDICATES, name);
}

/** True when a subject holds one value of the predicate at a time. */
export function isSingleValued(predicate: Predicate): boolean {
  return PREDICATES[predicate].single;
}

/**
 * A triple as the model answers it. The predicate is any short text here: one outside the list
 * is dropped and counted after validation, so one stray predicate does not cost a retry and
 * the facts of the same answer.
 */
export const modelTripleSchema = z.object({
  subject: z.string().trim().min(1).max(200),
  predicate: z.string().trim().min(1).max(64),
  object: z.string().trim().min(1).max(200),
});
export type ModelTriple = z.infer<typeof modelTripleSchema>;

/** The prompt's sentence about triples, with the list and what each predicate means. */
export function triplePrompt(): string {
  const list = PREDICATE_NAMES.map((name) => `${name} (${PREDICATES[name].meaning})`).join(", ");
  return [
    'Each fact may also carry "triples": [{"subject": "...", "predicate": "...", "object": "..."}],',
    'the knowledge-graph facts it states. The subject is a person\'s name, or "user" for the user;',
    `the predicate is one of: ${list}; the object is a short name, place, thing or date.`,
    "Use no other predicate; leave triples out when none fits.",
  ].join(" ");
}
