import type { Memory, RetrievalSettings } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { keys, useInstances } from "../fixture.js";
import { createTestEmbedder } from "../test-embedder.js";

const ON: Partial<RetrievalSettings> = { conflictMode: "combined" };

/**
 * Conflict detection on store (`conflict_mode`, `conflict_threshold`, `conflict_categories`):
 * the shared implementation of `@memory/api` (`checkConflicts`), which each backend calls at the
 * end of `store`. A factory that does not pass `settings` on, or a backend that does not run
 * it, fails the group (the first store result must carry a `conflict` decision).
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
        "store with conflictMode on must return its conflict decision",
      ).toBeDefined();
      return memory;
    };

    it("supersedes the older entry when a newer one contradicts it, and says so in the store result", async () => {
      const memory = await open();
      await memory.store({ key: "diet-1", content: "The user is vegetarian" });
      const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
      expect(newer.conflict).toMatchObject({ mode: "combined", superseded: ["diet-1"] });
      const candidate = newer.conflict!.candidates.find((c) => c.key === "diet-1")!;
      expect(candidate.superseded).toBe(true);
      expect(candidate.score).toBeGreaterThan(newer.conflict!.threshold);
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

    it("supersedes an update of the same fact (`now`, `moved`) with the default threshold", async () => {
      const memory = await open();
      await memory.store({ key: "editor-1", content: "The user's favourite editor is Vim" });
      const newer = await memory.store({
        key: "editor-2",
        content: "The user's favourite editor is now Neovim",
      });
      expect(newer.conflict!.superseded).toEqual(["editor-1"]);
      expect(newer.conflict!.threshold).toBe(0.7);
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

    it("works without an embedder (the combined score falls back to Jaccard)", async () => {
      const memory = await open(ON, false);
      await memory.store({ key: "t1", content: "The team uses tabs for indentation" });
      const newer = await memory.store({
        key: "t2",
        content: "The team no longer uses tabs for indentation",
      });
      expect(newer.conflict!.superseded).toEqual(["t1"]);
      expect(newer.conflict!.candidates[0]!.cosine).toBeUndefined();
    });

    it("is off by default: no decision, nothing superseded", async () => {
      const memory = await instances.create(createTestEmbedder({ dimensions: 256 }));
      await memory.store({ key: "diet-1", content: "The user is vegetarian" });
      const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
      expect(newer.conflict).toBeUndefined();
      expect((await memory.get("diet-1"))!.supersededBy).toBeUndefined();
    });
  });
}
