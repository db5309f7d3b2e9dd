import type { Memory, MemoryEntry } from "@memory/api";
import { type Fact, readFact, SubjectAliases, sameSubject } from "@memory/core";
import { echoesMessage, sameText } from "./context-entries.js";
import { sentences } from "./turn-text.js";

/** Core facts read per context at most (the newest); a user's standing facts fit well within. */
export const ANSWER_FACTS = 1000;

/** Readings of core entries by memory and key, valid while the entry's `updatedAt` is unchanged. */
const readings = new WeakMap<object, Map<string, { updatedAt: string; fact: Fact }>>();

export function readingOf(memory: object, entry: MemoryEntry): Fact {
  let cache = readings.get(memory);
  if (cache === undefined) {
    cache = new Map();
    readings.set(memory, cache);
  }
  const cached = cache.get(entry.key);
  if (cached !== undefined && cached.updatedAt === entry.updatedAt) return cached.fact;
  const fact = readFact(entry.content);
  cache.set(entry.key, { updatedAt: entry.updatedAt, fact });
  return fact;
}

/**
 * The standing facts that answer a question read as a fact (`readQuestion`): the current
 * (not superseded) core entries whose reading has the question's subject and attribute, names
 * resolved through the facts themselves ("Maya" is "my sister"). Read from the core entries,
 * not from a ranked recall: "Where do I live?" shares no word with "We moved to Munich", and an
 * answer must not depend on how many other entries share more words. Also returns the keys of
 * the same attribute of someone else ("My sister lives in Hamburg" for "Where do I live?"),
 * which the context leaves out when it has an answer.
 */
export function answeringEntries(
  memory: object,
  reading: Fact,
  core: readonly MemoryEntry[],
): { answers: MemoryEntry[]; othersAnswers: (entry: MemoryEntry) => boolean } {
  const facts = core.map((entry) => ({ entry, fact: readingOf(memory, entry) }));
  const sameAttribute = facts.filter(({ fact }) => fact.attribute === reading.attribute);
  const aliases = new SubjectAliases([...facts.map(({ fact }) => fact), reading]);
  const subject = aliases.resolve(reading.subject);
  const answers: MemoryEntry[] = [];
  for (const { entry, fact } of sameAttribute) {
    const entrySubject = aliases.resolve(fact.subject);
    if (subject && entrySubject && sameSubject(entrySubject, subject)) answers.push(entry);
  }
  // Any entry (a fact, a note, what the user said) stating the attribute of someone else.
  const othersAnswers = (entry: MemoryEntry): boolean => {
    const fact = readingOf(memory, entry);
    if (fact.attribute !== reading.attribute) return false;
    const entrySubject = aliases.resolve(fact.subject);
    return !(subject && entrySubject && sameSubject(entrySubject, subject));
  };
  return { answers, othersAnswers };
}

/**
 * The namespace's core facts, current and superseded (the newest `ANSWER_FACTS`): the current
 * ones answer questions read as facts, the superseded ones tell which turns are stale.
 */
export async function coreFacts(
  memory: Pick<Memory, "list">,
  scope: { namespace?: string },
): Promise<{ current: MemoryEntry[]; superseded: MemoryEntry[] }> {
  const core = await memory.list({
    ...scope,
    categories: ["core"],
    includeSuperseded: true,
    limit: ANSWER_FACTS,
  });
  return {
    current: core.filter((entry) => entry.supersededBy === undefined),
    superseded: core.filter((entry) => entry.supersededBy !== undefined),
  };
}

/**
 * The superseded fact an entry repeats, if any: one of its sentences is (near-)
 * identical to a superseded fact. `autosaveTurn` promotes the facts of a user message sentence
 * by sentence, so "We set the wedding for June." said in a turn is stale once the promoted copy
 * was superseded by "We moved the wedding to September." The turn's other facts, promoted on
 * their own, stay current.
 */
export function repeatsStaleFact(
  entry: MemoryEntry,
  superseded: readonly MemoryEntry[],
): MemoryEntry | undefined {
  if (superseded.length === 0 || entry.category === "core") return undefined;
  // Each sentence read once, whatever the number of superseded facts.
  const told = sentences(entry.content).map((sentence) => ({
    sentence,
    said: new Set(words(sentence)),
  }));
  return superseded.find((old) => {
    const stale = old.content.trim();
    const clause = words(stale);
    return (
      echoesMessage(entry, stale) ||
      told.some(
        ({ sentence, said }) =>
          sameText(sentence, stale) ||
          (clause.length >= CLAUSE_WORDS && clause.every((word) => said.has(word))),
      )
    );
  });
}

/** Words a promoted clause needs before containment counts ("Clara works as a nurse"). */
const CLAUSE_WORDS = 4;

/**
 * The words of a text, for clause containment: a sentence holds a clause promoted from it when
 * every word of the clause is in the sentence ("My sister Clara lives in Hamburg and works as a
 * nurse" holds "My sister Clara works as a nurse"), the clause being long enough not to match
 * by chance.
 */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}'’]+/gu) ?? [];
}
