/**
 * The labelled conflict benchmark's data (bench/conflicts): its shape and coverage, never the
 * quality of conflict detection (that is what `pnpm bench:conflicts` measures).
 */
import { describe, expect, it } from "vitest";
import {
  loadConflictBenchPairs,
  loadConflictBenchScenario,
  PAIR_CLASSES,
  SPLITS,
} from "../bench/conflicts/dataset.js";

const pairs = loadConflictBenchPairs();
const scenario = loadConflictBenchScenario();

describe("conflict benchmark pairs", () => {
  it("holds at least 360 pairs, every one valid against the schema", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(360);
  });

  it("gives every class at least 25 pairs and pairs in both splits", () => {
    const coverage = PAIR_CLASSES.map((name) => {
      const inClass = pairs.filter((pair) => pair.class === name);
      return {
        name,
        enough: inClass.length >= 25,
        splits: SPLITS.filter((split) => inClass.some((pair) => pair.split === split)),
      };
    });
    expect(coverage).toEqual(
      PAIR_CLASSES.map((name) => ({ name, enough: true, splits: [...SPLITS] })),
    );
  });

  it("names each pair by its class and split, with ids unique", () => {
    const ids = pairs.map((pair) => pair.id);
    expect(new Set(ids).size).toBe(ids.length);
    const misnamed = pairs.filter((pair) => !pair.id.startsWith(`${pair.class}-${pair.split}-`));
    expect(misnamed).toEqual([]);
  });

  it("repeats no old/new pair and never stores the same text as old and new", () => {
    const texts = pairs.map((pair) => `${pair.old}\u0000${pair.new}`);
    expect(new Set(texts).size).toBe(texts.length);
    expect(pairs.filter((pair) => pair.old === pair.new)).toEqual([]);
  });

  it("keeps about a third of the tuning pairs for the check split", () => {
    const tuning = pairs.filter((pair) => pair.split === "dev" || pair.split === "check");
    const check = tuning.filter((pair) => pair.split === "check").length / tuning.length;
    expect(check).toBeGreaterThan(0.28);
    expect(check).toBeLessThan(0.4);
  });

  it("crowds every crowded pair with 5 to 15 facts stored before it, and only those", () => {
    const crowdSizes = pairs
      .filter((pair) => pair.class === "crowded")
      .map((pair) => pair.before?.length ?? 0);
    expect(crowdSizes.filter((size) => size < 5 || size > 15)).toEqual([]);
    expect(pairs.filter((pair) => pair.class !== "crowded" && pair.before !== undefined)).toEqual(
      [],
    );
  });

  it("labels the classes whose label is fixed by definition that way", () => {
    const fixed: Record<string, "keep" | "supersede"> = {
      additive: "keep",
      unrelated: "keep",
      paraphrase: "keep",
      "natural-update": "supersede",
      crowded: "supersede",
    };
    const against = pairs.filter(
      (pair) => fixed[pair.class] !== undefined && fixed[pair.class] !== pair.expect,
    );
    expect(against).toEqual([]);
  });
});

describe("conflict benchmark long-store scenario", () => {
  const factKeys = scenario.facts.map((fact) => fact.key);
  const updateKeys = scenario.updates.map((update) => update.key);

  it("stores at least 200 facts about the user and at least 30 others", () => {
    expect(scenario.facts.length).toBeGreaterThanOrEqual(200);
    const others = new Set(
      scenario.facts.map((fact) => fact.about).filter((who) => who !== "user"),
    );
    expect(others.size).toBeGreaterThanOrEqual(30);
  });

  it("gives every fact and update a key of its own", () => {
    const keys = [...factKeys, ...updateKeys];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("has at least 30 updates that name facts to supersede, some about other people", () => {
    const targeted = scenario.updates.filter((update) => update.supersedes.length > 0);
    expect(targeted.length).toBeGreaterThanOrEqual(30);
    const aboutOthers = targeted.filter((update) =>
      update.supersedes.some(
        (key) => scenario.facts.find((fact) => fact.key === key)?.about !== "user",
      ),
    );
    expect(aboutOthers.length).toBeGreaterThanOrEqual(5);
  });

  it("names only existing facts as update targets, each targeted once", () => {
    const targets = scenario.updates.flatMap((update) => update.supersedes);
    expect(targets.filter((key) => !factKeys.includes(key))).toEqual([]);
    expect(new Set(targets).size).toBe(targets.length);
  });

  it("expects each question to find an existing fact or update that no update supersedes", () => {
    const targets = new Set(scenario.updates.flatMap((update) => update.supersedes));
    const unknown = scenario.questions.filter(
      (question) =>
        !(factKeys.includes(question.expectKey) || updateKeys.includes(question.expectKey)) ||
        targets.has(question.expectKey),
    );
    expect(scenario.questions.length).toBeGreaterThanOrEqual(5);
    expect(unknown).toEqual([]);
  });
});
