/**
 * Follow-up questions derived from LoCoMo's questions (issue 25 item 4), by a fixed rule set, the
 * same for every question (nothing tuned per case):
 *
 * 1. Only answerable questions (categories 1-4) that name exactly one of the conversation's two
 *    speakers (a whole word, case-sensitive, possessive included) are used. LoCoMo gives the
 *    speakers' names, so they are the entities; guessing other proper nouns from capitals would
 *    be a heuristic of its own. Questions naming both speakers or neither are counted, not used.
 * 2. The exchange is two user messages: the opener `Let's talk about <name>.`, then the question
 *    with the name replaced by a pronoun. LoCoMo has no speaker gender, so the pronoun is
 *    "they": `<name>'s` -> "their"; `<name>` right after an auxiliary, a wh-word or a
 *    conjunction, or first in the question -> "they" (the subject of a question sits there);
 *    anywhere else (after a preposition or a verb) -> "them".
 * 3. Agreement: an auxiliary right before or after the new "they" becomes plural (is -> are,
 *    was -> were, does -> do, has -> have). A third-person verb after it ("Caroline likes") is
 *    left as it is: recall reads words, not grammar.
 */
import type { LocomoConversation, LocomoQuestion } from "./locomo-data.js";

export interface FollowUp {
  /** The LoCoMo question it comes from (same evidence). */
  questionId: string;
  /** The speaker the opener names and the pronoun replaces. */
  entity: string;
  /** First user message: names the topic. */
  opener: string;
  /** Second user message: the question, with a pronoun for the entity. */
  text: string;
}

export interface FollowUpDerivation {
  followUps: FollowUp[];
  /** Answerable questions not used, by reason. */
  skipped: { noSpeakerNamed: number; bothSpeakersNamed: number };
}

const AUXILIARIES = new Set(
  `do does did is are was were has have had will would can could should shall may might must`.split(
    " ",
  ),
);
const SUBJECT_OPENERS = new Set(
  `what when where who whom why how which whose and or but if that because since while as though
  although until once whether so than`.split(/\s+/),
);
const PLURAL: Record<string, string> = { is: "are", was: "were", does: "do", has: "have" };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The name as a whole word, with an optional possessive ('s or ’s). */
function namePattern(name: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(['’]s)?(?![\\p{L}\\p{N}])`, "gu");
}

function names(text: string, name: string): boolean {
  return name.trim() !== "" && namePattern(name).test(text);
}

function keepCase(model: string, word: string): string {
  return /^\p{Lu}/u.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** The question with `name` replaced by they / them / their (rules 2 and 3 above). */
export function pronounFor(question: string, name: string): string {
  const replaced = question.replace(
    namePattern(name),
    (_match, possessive: string | undefined, offset: number) => {
      if (possessive) return "their";
      const before = /([\p{L}']+)\W*$/u.exec(question.slice(0, offset))?.[1]?.toLowerCase();
      const subject =
        before === undefined || AUXILIARIES.has(before) || SUBJECT_OPENERS.has(before);
      return subject ? "\u0000they" : "them";
    },
  );
  // \0 marks a new subject "they": fix the auxiliary next to it, then its capital.
  return replaced
    .replace(
      /(\p{L}+)(\s+)\u0000they/gu,
      (_m, word: string, space: string) =>
        `${PLURAL[word.toLowerCase()] ? keepCase(word, PLURAL[word.toLowerCase()] as string) : word}${space}\u0000they`,
    )
    .replace(
      /\u0000they(\s+)(is|was|does|has)\b/g,
      (_m, space: string, word: string) => `\u0000they${space}${PLURAL[word]}`,
    )
    .replace(/(^\s*)\u0000they/, "$1They")
    .replaceAll("\u0000they", "they");
}

/** The follow-up exchange of one question, or why there is none. */
export function deriveFollowUp(
  question: Pick<LocomoQuestion, "id" | "text" | "category">,
  speakers: LocomoConversation["speakers"],
): FollowUp | "noSpeakerNamed" | "bothSpeakersNamed" {
  const named = [...new Set([speakers.a, speakers.b])].filter((name) => names(question.text, name));
  if (named.length === 0) return "noSpeakerNamed";
  if (named.length > 1) return "bothSpeakersNamed";
  const entity = named[0] as string;
  return {
    questionId: question.id,
    entity,
    opener: `Let's talk about ${entity}.`,
    text: pronounFor(question.text, entity),
  };
}

/** Follow-ups for every answerable question (categories 1-4) the rules apply to. */
export function deriveFollowUps(
  questions: readonly LocomoQuestion[],
  speakersOf: (conversation: string) => LocomoConversation["speakers"] | undefined,
): FollowUpDerivation {
  const result: FollowUpDerivation = {
    followUps: [],
    skipped: { noSpeakerNamed: 0, bothSpeakersNamed: 0 },
  };
  for (const question of questions) {
    if (!(question.category >= 1 && question.category <= 4)) continue;
    const speakers = speakersOf(question.conversation);
    const derived = speakers ? deriveFollowUp(question, speakers) : "noSpeakerNamed";
    if (typeof derived === "string") result.skipped[derived]++;
    else result.followUps.push(derived);
  }
  return result;
}
