import type { Memory, MemoryEntry, RecallOptions } from "@memory/api";
import { conflictQuery, type Fact, readFact, SubjectAliases, sameSubject } from "@memory/core";

/**
 * The stored facts that answer a question read as a fact (`readQuestion`): one recall with the
 * attribute's surface forms (the query conflict detection uses, so "Where do I live?" reaches
 * "We moved to Munich last month"), then only the entries whose reading has the question's
 * subject and attribute. Their relevance to the question's words does not matter: they answer
 * it. Also returns the entries about the same attribute of someone else ("My sister lives in
 * Hamburg" for "Where do I live?"), which the context leaves out when it has an answer.
 */
export async function answeringEntries(
  memory: Pick<Memory, "recall">,
  question: string,
  reading: Fact,
  options: RecallOptions,
): Promise<{ answers: MemoryEntry[]; othersAnswers: Set<string> }> {
  const found = await memory.recall(conflictQuery(question, reading), {
    ...options,
    includeSuperseded: false,
  });
  const facts = found.map((entry) => ({ entry, fact: readFact(entry.content) }));
  const aliases = new SubjectAliases([...facts.map(({ fact }) => fact), reading]);
  const subject = aliases.resolve(reading.subject);
  const answers: MemoryEntry[] = [];
  const othersAnswers = new Set<string>();
  for (const { entry, fact } of facts) {
    if (fact.attribute !== reading.attribute || fact.subject === undefined || !subject) continue;
    const entrySubject = aliases.resolve(fact.subject);
    if (entrySubject && sameSubject(entrySubject, subject)) answers.push(entry);
    else othersAnswers.add(entry.key);
  }
  return { answers, othersAnswers };
}
