import type { Memory, RetrievalSettings } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { keys, useInstances } from "../fixture.js";
import { createTestEmbedder } from "../test-embedder.js";
import { conflictRecordTests } from "./conflict-records.js";

const ON: Partial<RetrievalSettings> = {};

/**
 * Conflict detection on store (`conflict_mode` = `rules` by default, `conflict_policy`,
 * `conflict_categories`): the one implementation of `@memory/core` (`checkConflicts`), which the
 * facade runs inside `store` on every backend. A factory that does not pass `settings` on, or a
 * backend that does not run it, fails the group (the first store result must carry a decision).
 */
export function conflictsGroup(options: ConformanceOptions): void {
  describe(`${options.name}: conflicts`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    /** A store with conflict detection on (fails the test when the backend ignores it). */
    const open = async (
      settings: Partial<RetrievalSettings> = ON,
      embedder = true,
    ): Promise<Memory> => {
      const memory = await instances.create(
        embedder ? createTestEmbedder({ dimensions: 256 }) : undefined,
        settings,
      );
      const probe = await memory.store({
        key: "probe",
        content: "probe entry",
        namespace: "probe",
      });
      // Every backend runs conflict detection inside store (the facade of @memory/core does).
      expect(
        probe.conflict,
        "store with conflict detection on (the default) must return its conflict decision",
      ).toBeDefined();
      return memory;
    };

    it("supersedes the older entry when a newer one contradicts it, and says so in the store result", async () => {
      const memory = await open();
      await memory.store({ key: "diet-1", content: "The user is vegetarian" });
      const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
      expect(newer.conflict).toMatchObject({ mode: "rules", superseded: ["diet-1"] });
      expect(newer.conflict!.reading).toMatchObject({
        subject: "@user",
        attribute: "diet",
        value: "vegetarian",
        negated: true,
      });
      const candidate = newer.conflict!.candidates.find((c) => c.key === "diet-1")!;
      expect(candidate).toMatchObject({ superseded: true, rule: "negated", decidedBy: "rules" });
      expect(candidate.reading).toMatchObject({
        subject: "@user",
        attribute: "diet",
        negated: false,
      });
      expect(candidate.reason).toMatch(/negated/);
      // Similarity stays in the record as evidence.
      expect(candidate.signals.negationReversal).toBeGreaterThan(0);
      expect(candidate.jaccard).toBeGreaterThan(0.5);
      const old = await memory.get("diet-1");
      expect(old).toMatchObject({ content: "The user is vegetarian", supersededBy: "diet-2" });
      expect(old!.conflict).toBeUndefined();
      // The superseded entry leaves recall (and comes back, with supersededBy, when asked for).
      expect(keys(await memory.recall("vegetarian", { minScore: 0 }))).toEqual(["diet-2"]);
      const all = await memory.recall("vegetarian", { minScore: 0, includeSuperseded: true });
      expect(all.find((entry) => entry.key === "diet-1")?.supersededBy).toBe("diet-2");
    });

    it("supersedes a single-valued attribute's old value, however the update is worded", async () => {
      const memory = await open();
      await memory.store({ key: "editor-1", content: "The user's favourite editor is Vim" });
      const newer = await memory.store({
        key: "editor-2",
        content: "The user's favorite editor is now Neovim",
      });
      expect(newer.conflict!.superseded).toEqual(["editor-1"]);
      await memory.store({ key: "home-1", content: "The user lives in Berlin" });
      const moved = await memory.store({
        key: "home-2",
        content: "The user moved to Munich last month",
      });
      expect(moved.conflict!.superseded).toEqual(["home-1"]);
      expect(moved.conflict!.candidates[0]).toMatchObject({
        key: "home-1",
        rule: "single-value-changed",
        reading: { attribute: "lives_in", cardinality: "single" },
      });
    });

    it("finds the older fact about the same subject and attribute among many that share more words", async () => {
      const memory = await open();
      await memory.store({ key: "home", content: "The user lives in Hamburg" });
      const people = ["Anna", "Ben", "Carla", "Dieter", "Emil", "Frieda", "Gustav", "Hanna"];
      for (const [index, name] of people.entries()) {
        await memory.store({
          key: `crowd-${index}`,
          content: `The user's friend ${name} moved to Munich last month`,
        });
      }
      const moved = await memory.store({
        key: "moved",
        content: "The user moved to Munich last month",
      });
      expect(moved.conflict!.superseded).toEqual(["home"]);
      for (const [index] of people.entries()) {
        expect((await memory.get(`crowd-${index}`))!.supersededBy).toBeUndefined();
      }
    });

    it("never supersedes for additive phrasing or another value of a multi-valued attribute", async () => {
      const memory = await open();
      await memory.store({ key: "likes", content: "The user likes hiking" });
      const also = await memory.store({ key: "also", content: "The user also likes cycling" });
      const speaks = await memory.store({ key: "fr", content: "The user speaks French" });
      const more = await memory.store({ key: "it", content: "The user speaks Italian" });
      expect(also.conflict!.superseded).toEqual([]);
      expect(speaks.conflict!.superseded).toEqual([]);
      expect(more.conflict!.superseded).toEqual([]);
      const ended = await memory.store({ key: "over", content: "The user no longer likes hiking" });
      expect(ended.conflict!.superseded).toEqual(["likes"]);
    });

    it("records and hides nothing with conflict_policy = flag", async () => {
      const memory = await open({ conflictPolicy: "flag" });
      await memory.store({ key: "diet-1", content: "The user is vegetarian" });
      const newer = await memory.store({ key: "diet-2", content: "The user is vegan now" });
      expect(newer.conflict).toMatchObject({ policy: "flag", superseded: [], flagged: ["diet-1"] });
      expect(newer.conflict!.candidates[0]).toMatchObject({
        key: "diet-1",
        flagged: true,
        superseded: false,
      });
      expect((await memory.get("diet-1"))!.supersededBy).toBeUndefined();
    });

    it("never supersedes a fact about another person, however alike the sentences", async () => {
      const memory = await open();
      await memory.store({ key: "bob", content: "Bob lives in Berlin" });
      await memory.store({
        key: "alice-job",
        content: "Alice works at Google as a data scientist",
      });
      const paris = await memory.store({ key: "alice", content: "Alice moved to Paris" });
      expect(paris.conflict!.superseded).toEqual([]);
      const carol = await memory.store({
        key: "carol-job",
        content: "Carol works at Google as a data scientist now",
      });
      expect(carol.conflict!.superseded).toEqual([]);
      const candidate = carol.conflict!.candidates.find((c) => c.key === "alice-job");
      expect(candidate?.differentSubject).toMatch(/different subjects/);
      expect(candidate?.rule).toBe("different-subjects");
      expect(candidate?.superseded).toBe(false);
      expect(await memory.count()).toBe(4);
      for (const key of ["bob", "alice-job"])
        expect((await memory.get(key))!.supersededBy).toBeUndefined();
    });

    it("leaves unrelated facts that share words alone", async () => {
      const memory = await open();
      await memory.store({ key: "car", content: "The user's car is red" });
      await memory.store({ key: "coffee", content: "The user likes coffee" });
      const bike = await memory.store({ key: "bike", content: "The user's bike is red" });
      const hiking = await memory.store({
        key: "hiking",
        content: "The user likes hiking in the mountains",
      });
      expect(bike.conflict!.superseded).toEqual([]);
      expect(hiking.conflict!.superseded).toEqual([]);
      expect(await memory.count()).toBe(4);
    });

    it("looks only in the same namespace and in the checked categories", async () => {
      const memory = await open();
      await memory.store({ key: "a", content: "The user is vegetarian", namespace: "other" });
      await memory.store({ key: "log", content: "The user is vegetarian", category: "daily" });
      const core = await memory.store({ key: "b", content: "The user is not vegetarian" });
      expect(core.conflict!.superseded).toEqual([]);
      expect(core.conflict!.candidates).toEqual([]);
      // A daily entry is not checked by default: no decision at all.
      const daily = await memory.store({
        key: "log-2",
        content: "The user is no longer vegetarian",
        category: "daily",
      });
      expect(daily.conflict).toBeUndefined();
      expect((await memory.get("a", { namespace: "other" }))!.supersededBy).toBeUndefined();
      expect((await memory.get("log"))!.supersededBy).toBeUndefined();
    });

    it("checks the categories of conflict_categories", async () => {
      const memory = await open({ ...ON, conflictCategories: "core, preferences" });
      await memory.store({
        key: "p1",
        content: "The user prefers dark mode in the editor",
        category: "preferences",
      });
      const newer = await memory.store({
        key: "p2",
        content: "The user prefers light mode in the editor now",
        category: "preferences",
      });
      expect(newer.conflict!.superseded).toEqual(["p1"]);
    });

    it("does not supersede an entry whose content is the same, nor the key being stored", async () => {
      const memory = await open();
      await memory.store({ key: "x", content: "The user is vegetarian" });
      const same = await memory.store({ key: "y", content: "The user is vegetarian" });
      expect(same.conflict!.superseded).toEqual([]);
      const again = await memory.store({ key: "y", content: "The user is not vegetarian" });
      expect(again.conflict!.superseded).toEqual(["x"]);
      expect((await memory.get("y"))!.supersededBy).toBeUndefined();
    });

    it("works without an embedder (candidates by keyword, the same rules)", async () => {
      const memory = await open(ON, false);
      await memory.store({ key: "t1", content: "The team uses tabs for indentation" });
      const newer = await memory.store({
        key: "t2",
        content: "The team no longer uses tabs for indentation",
      });
      expect(newer.conflict!.superseded).toEqual(["t1"]);
      expect(newer.conflict!.candidates[0]!.cosine).toBeUndefined();
    });

    it("is off with conflict_mode = off: no decision, nothing superseded", async () => {
      const memory = await instances.create(createTestEmbedder({ dimensions: 256 }), {
        conflictMode: "off",
      });
      await memory.store({ key: "diet-1", content: "The user is vegetarian" });
      const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
      expect(newer.conflict).toBeUndefined();
      expect((await memory.get("diet-1"))!.supersededBy).toBeUndefined();
    });

    it("accepts the similarity modes of earlier versions and decides with the rules", async () => {
      const memory = await open({ conflictMode: "combined" });
      await memory.store({ key: "bike", content: "The user's bike is red" });
      const car = await memory.store({ key: "car", content: "The user's car is red" });
      expect(car.conflict).toMatchObject({ mode: "rules", superseded: [] });
    });

    conflictRecordTests(open);
  });
}
