import type { Memory } from "@memory/api";
import type { Scenario } from "./dataset.js";

/** A supersession no update asked for. */
export interface FalseSupersession {
  key: string;
  content: string;
  by: string;
  /** While the facts were stored, or while the updates were. */
  phase: "facts" | "updates";
}

export interface ScenarioOutcome {
  facts: number;
  updates: number;
  /** Updates that name at least one fact to supersede. */
  targetedUpdates: number;
  /** Of those, the ones that superseded every fact they name. */
  updatesHit: number;
  /** Named targets superseded by their update, out of all named targets. */
  targetsHit: number;
  targets: number;
  falseSupersessions: FalseSupersession[];
  /** Updates that missed a target, with the keys they missed. */
  missed: { update: string; content: string; missing: string[] }[];
  questions: { query: string; expectKey: string; firstKey: string | undefined; hit: boolean }[];
}

const NAMESPACE = "long-store";

/**
 * Stores the scenario's facts one by one, then its updates, as core entries in one namespace;
 * then asks its questions. Judged on what the store holds at the end (superseded entries
 * included), so a supersession is counted however it came about.
 */
export async function runScenario(memory: Memory, scenario: Scenario): Promise<ScenarioOutcome> {
  const contents = new Map<string, string>();
  const factKeys = new Set(scenario.facts.map((fact) => fact.key));
  for (const fact of scenario.facts) {
    contents.set(fact.key, fact.content);
    await memory.store({
      key: fact.key,
      content: fact.content,
      category: "core",
      namespace: NAMESPACE,
    });
  }
  for (const update of scenario.updates) {
    contents.set(update.key, update.content);
    await memory.store({
      key: update.key,
      content: update.content,
      category: "core",
      namespace: NAMESPACE,
    });
  }
  const supersededBy = new Map<string, string>();
  for (const entry of await memory.list({
    namespace: NAMESPACE,
    includeSuperseded: true,
    limit: 10_000,
  })) {
    if (entry.supersededBy !== undefined) supersededBy.set(entry.key, entry.supersededBy);
  }
  const targetsOf = new Map(scenario.updates.map((update) => [update.key, update.supersedes]));
  const falseSupersessions: FalseSupersession[] = [];
  for (const [key, by] of supersededBy) {
    if (targetsOf.get(by)?.includes(key)) continue;
    falseSupersessions.push({
      key,
      content: contents.get(key) ?? "",
      by,
      phase: factKeys.has(by) ? "facts" : "updates",
    });
  }
  const targeted = scenario.updates.filter((update) => update.supersedes.length > 0);
  const missed = targeted
    .map((update) => ({
      update: update.key,
      content: update.content,
      missing: update.supersedes.filter((target) => supersededBy.get(target) !== update.key),
    }))
    .filter((miss) => miss.missing.length > 0);
  const targets = targeted.reduce((sum, update) => sum + update.supersedes.length, 0);
  const questions = [];
  for (const question of scenario.questions) {
    const [first] = await memory.recall(question.query, { namespace: NAMESPACE, limit: 1 });
    questions.push({
      ...question,
      firstKey: first?.key,
      hit: first?.key === question.expectKey,
    });
  }
  return {
    facts: scenario.facts.length,
    updates: scenario.updates.length,
    targetedUpdates: targeted.length,
    updatesHit: targeted.length - missed.length,
    targetsHit: targets - missed.reduce((sum, miss) => sum + miss.missing.length, 0),
    targets,
    falseSupersessions,
    missed,
    questions,
  };
}
