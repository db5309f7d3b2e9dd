import type { Memory } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { declares, itWith } from "../declarations.js";
import { useInstances } from "../fixture.js";
import { codeOf } from "./relations.js";

const DAY = 86_400_000;
const START = Date.parse("2026-03-02T09:00:00.000Z");

async function seed(memory: Memory, namespace?: string): Promise<void> {
  const ns = namespace === undefined ? {} : { namespace };
  await memory.store({
    key: "coffee",
    content: "The user drinks black coffee every morning",
    ...ns,
  });
  await memory.store({ key: "tea", content: "The user drinks green tea in the evening", ...ns });
  await memory.store({ key: "bike", content: "The user rides a bike to work", ...ns });
}

/**
 * Usage (`capabilities.usage`; docs/usage.md): recall ids and feedback, per-entry statistics,
 * pins and snoozes, a bounded event table, usage carried by export/import and removed with its
 * entry. A backend that does not declare it refuses the operations with UNSUPPORTED.
 */
export function usageGroup(options: ConformanceOptions): void {
  const withUsage = itWith(options, "usage");
  describe(`${options.name}: usage`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);
    let clock = START;
    const open = () => instances.createWith({ now: () => clock });

    if (!declares(options, "usage")) {
      it("refuses feedback, pins, snoozes and usage with UNSUPPORTED, and gives recalls no id", async () => {
        const memory = await instances.create();
        await seed(memory);
        expect(memory.capabilities.usage ?? false).toBe(false);
        const results = await memory.recall("coffee", { minScore: 0 });
        expect(results.recallId).toBeUndefined();
        expect(await codeOf(() => memory.feedback({ recallId: "x", used: [] }))).toBe(
          "UNSUPPORTED",
        );
        expect(await codeOf(() => memory.pin("coffee"))).toBe("UNSUPPORTED");
        expect(await codeOf(() => memory.snooze("coffee", { forMs: DAY }))).toBe("UNSUPPORTED");
        expect(await codeOf(() => memory.usage())).toBe("UNSUPPORTED");
      });
      return;
    }

    withUsage("a recall gets an id; feedback counts uses, days and distinct queries", async () => {
      clock = START;
      const memory = await open();
      await seed(memory);
      expect(memory.capabilities.usage).toBe(true);
      const first = await memory.recall("what does the user drink in the morning", { minScore: 0 });
      expect(first.recallId).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(first.map((entry) => entry.key)).toContain("coffee");
      const report = await memory.feedback({
        recallId: first.recallId!,
        used: ["coffee"],
        ignored: first.some((e) => e.key === "tea") ? ["tea"] : [],
      });
      expect(report.used).toEqual(["coffee"]);
      // The same feedback again counts once.
      await memory.feedback({ recallId: first.recallId!, used: ["coffee"] });
      clock += DAY;
      const second = await memory.recall("Coffee?", { minScore: 0 });
      await memory.feedback({ recallId: second.recallId!, used: ["coffee"] });
      clock += 1000;
      // The same question with other case and spacing is the same query.
      const third = await memory.recall("coffee? ", { minScore: 0 });
      await memory.feedback({ recallId: third.recallId!, used: ["coffee"] });
      const { entries } = await memory.usage({ keys: ["coffee", "bike"] });
      const coffee = entries.find((entry) => entry.key === "coffee")!;
      expect(coffee.stats).toMatchObject({ surfaced: 3, used: 3, queries: 2, days: 2 });
      expect(coffee.stats.lastUsedAt).toBe(new Date(clock).toISOString());
      expect(coffee.pinned).toBe(false);
      const bike = entries.find((entry) => entry.key === "bike")!;
      expect(bike.stats.used).toBe(0);
      // The report without keys: most used first.
      expect((await memory.usage()).entries[0]!.key).toBe("coffee");
    });

    withUsage(
      "feedback refuses an unknown id, another namespace's id and keys it did not return",
      async () => {
        clock = START;
        const memory = await open();
        await seed(memory);
        await seed(memory, "other");
        const results = await memory.recall("coffee", { minScore: 0.1 });
        expect(results.map((entry) => entry.key)).not.toContain("bike");
        const recallId = results.recallId!;
        expect(await codeOf(() => memory.feedback({ recallId: "no-such-recall", used: [] }))).toBe(
          "NOT_FOUND",
        );
        expect(
          await codeOf(() => memory.feedback({ recallId, used: ["coffee"], namespace: "other" })),
        ).toBe("NOT_FOUND");
        expect(await codeOf(() => memory.feedback({ recallId, used: ["bike"] }))).toBe(
          "INVALID_INPUT",
        );
        expect(await codeOf(() => memory.feedback({ recallId: "a b", used: [] }))).toBe(
          "INVALID_INPUT",
        );
        expect(
          await codeOf(() => memory.feedback({ recallId, used: ["coffee"], ignored: ["coffee"] })),
        ).toBe("INVALID_INPUT");
        // Nothing was recorded by the refused calls.
        const [coffee] = (await memory.usage({ keys: ["coffee"] })).entries;
        expect(coffee!.stats.used).toBe(0);
        expect(coffee!.stats.surfaced).toBe(1);
      },
    );

    withUsage(
      "track: false records nothing; trackRecall records an agent's own results",
      async () => {
        clock = START;
        const memory = await open();
        await seed(memory);
        const quiet = await memory.recall("coffee", { minScore: 0, track: false });
        expect(quiet.recallId).toBeUndefined();
        expect((await memory.usage({ keys: ["coffee"] })).entries[0]!.stats.surfaced).toBe(0);
        const recallId = await memory.trackRecall({ query: "drinks", keys: ["tea", "gone"] });
        await memory.feedback({ recallId, used: ["tea"] });
        expect((await memory.usage({ keys: ["tea"] })).entries[0]!.stats).toMatchObject({
          surfaced: 1,
          used: 1,
        });
        expect(await codeOf(() => memory.trackRecall({ query: "x", keys: ["gone"] }))).toBe(
          "NOT_FOUND",
        );
      },
    );

    withUsage(
      "a pin outlives a new content, boosts recall and is kept by bulk deletes that say so",
      async () => {
        clock = START;
        const memory = await open();
        await seed(memory);
        await memory.store({ key: "log", content: "Rode the bike in the rain", category: "daily" });
        const fused = async () =>
          (await memory.recall("bike rain", { minScore: 0 })).find((entry) => entry.key === "log")!
            .explain!;
        const unpinnedExplain = await fused();
        expect(unpinnedExplain.usage).toBeUndefined();
        const pinned = await memory.pin("log");
        expect(pinned.pinned).toBe(true);
        const before = await memory.get("log");
        expect(before!.pinned).toBe(true);
        const pinnedExplain = await fused();
        expect(pinnedExplain.usage).toMatchObject({ pinned: true });
        // pin_boost (0.1 by default) is added to the relevance, capped at 1.
        expect(pinnedExplain.fused).toBeCloseTo(Math.min(1, unpinnedExplain.fused + 0.1), 6);
        await memory.store({ key: "log", content: "Rode the bike in the sun", category: "daily" });
        expect((await memory.get("log"))!.pinned).toBe(true);
        expect(await codeOf(() => memory.pin("missing"))).toBe("NOT_FOUND");
        // (`superseded: false`: the kept version of the first content is not pinned.)
        const current = { categories: ["daily"], superseded: false, keepPinned: true };
        const report = await memory.deleteEntries(current);
        expect(report.deleted).toBe(0);
        expect(await memory.get("log")).not.toBeNull();
        const unpinned = await memory.unpin("log");
        expect(unpinned.pinned).toBeUndefined();
        expect((await memory.deleteEntries(current)).deleted).toBe(1);
      },
    );

    withUsage("a snoozed entry leaves recall until its time, and comes back", async () => {
      clock = START;
      const memory = await open();
      await seed(memory);
      const snoozed = await memory.snooze("coffee", { forMs: 7 * DAY });
      expect(snoozed.snoozedUntil).toBe(new Date(START + 7 * DAY).toISOString());
      expect((await memory.get("coffee"))!.snoozedUntil).toBe(snoozed.snoozedUntil);
      const keys = async (extra = {}) =>
        (await memory.recall("drinks coffee", { minScore: 0, ...extra })).map((e) => e.key);
      expect(await keys()).not.toContain("coffee");
      expect(await keys({ includeSnoozed: true })).toContain("coffee");
      // list still shows it.
      expect((await memory.list()).map((entry) => entry.key)).toContain("coffee");
      clock += 8 * DAY;
      expect(await keys()).toContain("coffee");
      await memory.snooze("coffee", { until: new Date(clock + DAY).toISOString() });
      expect(await keys()).not.toContain("coffee");
      await memory.unsnooze("coffee");
      expect(await keys()).toContain("coffee");
      expect((await memory.get("coffee"))!.snoozedUntil).toBeUndefined();
      expect(await codeOf(() => memory.snooze("coffee", { until: "2020-01-01" }))).toBe(
        "INVALID_INPUT",
      );
      expect(await codeOf(() => memory.snooze("coffee", { forMs: DAY, until: "2099-01-01" }))).toBe(
        "INVALID_INPUT",
      );
      expect(await codeOf(() => memory.snooze("missing", { forMs: DAY }))).toBe("NOT_FOUND");
    });

    withUsage(
      "events are bounded by pruneUsage; statistics stay; a pruned recall id is gone",
      async () => {
        clock = START;
        const memory = await open();
        await seed(memory);
        const old = await memory.recall("coffee", { minScore: 0 });
        await memory.feedback({ recallId: old.recallId!, used: ["coffee"] });
        clock += 10 * DAY;
        for (let round = 0; round < 3; round++) await memory.recall("tea", { minScore: 0 });
        const removed = await memory.pruneUsage({
          olderThan: new Date(START + DAY).toISOString(),
        });
        expect(removed).toBeGreaterThanOrEqual(2);
        expect(await codeOf(() => memory.feedback({ recallId: old.recallId!, used: [] }))).toBe(
          "NOT_FOUND",
        );
        expect((await memory.usage({ keys: ["coffee"] })).entries[0]!.stats.used).toBe(1);
        const latest = await memory.recall("bike", { minScore: 0 });
        const kept = await memory.pruneUsage({ keep: latest.length });
        expect(kept).toBeGreaterThan(0);
        // The newest recall's events are the ones kept.
        await memory.feedback({ recallId: latest.recallId!, used: [latest[0]!.key] });
      },
    );

    withUsage("forget, purge and bulk deletes remove an entry's usage", async () => {
      clock = START;
      const memory = await open();
      await seed(memory);
      const results = await memory.recall("drinks", { minScore: 0 });
      await memory.feedback({ recallId: results.recallId!, used: ["coffee", "tea"] });
      await memory.forget("coffee");
      await memory.store({ key: "coffee", content: "The user quit coffee" });
      expect((await memory.usage({ keys: ["coffee"] })).entries[0]!.stats.used).toBe(0);
      expect(
        await codeOf(() => memory.feedback({ recallId: results.recallId!, used: ["coffee"] })),
      ).toBe("INVALID_INPUT");
      await memory.purgeNamespace("default");
      await seed(memory);
      expect((await memory.usage({ keys: ["tea"] })).entries[0]!.stats).toMatchObject({
        surfaced: 0,
        used: 0,
      });
    });

    withUsage("export carries pins, snoozes and statistics; import restores them", async () => {
      clock = START;
      const memory = await open();
      await seed(memory);
      const results = await memory.recall("coffee", { minScore: 0 });
      await memory.feedback({ recallId: results.recallId!, used: ["coffee"] });
      await memory.pin("coffee");
      await memory.snooze("tea", { forMs: 3 * DAY });
      const exported = [];
      for await (const entry of memory.export()) exported.push(entry);
      const coffee = exported.find((entry) => entry.key === "coffee")!;
      expect(coffee.pinned).toBe(true);
      expect(coffee.usage!.stats).toMatchObject({ surfaced: 1, used: 1 });
      const copy = await open();
      await copy.importEntries(exported.map((entry) => ({ ...entry, namespace: "copy" })));
      expect((await copy.get("coffee", { namespace: "copy" }))!.pinned).toBe(true);
      expect((await copy.get("tea", { namespace: "copy" }))!.snoozedUntil).toBe(
        new Date(START + 3 * DAY).toISOString(),
      );
      const [line] = (await copy.usage({ namespace: "copy", keys: ["coffee"] })).entries;
      expect(line!.stats).toMatchObject({ surfaced: 1, used: 1, days: 1 });
      const refused = await copy.importEntries([
        { key: "bad", content: "x", usage: { stats: { used: -1 } } as never },
      ]);
      expect(refused.rejected.map((item) => item.code)).toEqual(["INVALID_INPUT"]);
    });

    withUsage(
      "feedbackFromReply counts the results a reply quotes as used, the rest as ignored",
      async () => {
        clock = START;
        const memory = await open();
        await seed(memory);
        const results = await memory.recall("What does the user drink?", { minScore: 0, limit: 3 });
        expect(results.map((entry) => entry.key).sort()).toEqual(["bike", "coffee", "tea"]);
        const report = await memory.feedbackFromReply(
          results.recallId!,
          "You usually have your coffee black, first thing every morning.",
        );
        expect(report.used).toEqual(["coffee"]);
        expect(report.ignored.sort()).toEqual(["bike", "tea"]);
        const { entries } = await memory.usage({ keys: ["coffee", "tea"] });
        expect(entries.map((entry) => [entry.key, entry.stats.used, entry.stats.ignored])).toEqual([
          ["coffee", 1, 0],
          ["tea", 0, 1],
        ]);
        expect(await codeOf(() => memory.feedbackFromReply("unknown", "text"))).toBe("NOT_FOUND");
      },
    );

    withUsage("namespaces keep their own usage", async () => {
      clock = START;
      const memory = await open();
      await seed(memory);
      await seed(memory, "b");
      const a = await memory.recall("coffee", { minScore: 0 });
      await memory.feedback({ recallId: a.recallId!, used: ["coffee"] });
      expect(
        (await memory.usage({ namespace: "b", keys: ["coffee"] })).entries[0]!.stats.used,
      ).toBe(0);
      expect((await memory.usage({ namespace: "b" })).entries).toEqual([]);
    });

    withUsage("pin and snooze candidates follow the documented rules", async () => {
      clock = START;
      const memory = await open();
      await seed(memory);
      const questions = ["coffee", "black coffee", "morning coffee"];
      for (const [day, question] of questions.entries()) {
        clock = START + day * DAY;
        const found = await memory.recall(question, { minScore: 0, limit: 3 });
        await memory.feedback({ recallId: found.recallId!, used: ["coffee"] });
      }
      for (let round = 0; round < 10; round++)
        await memory.trackRecall({ query: `bike ${round}`, keys: ["bike"] });
      const report = await memory.usage({ candidates: true });
      expect(report.pinCandidates!.map((entry) => entry.key)).toEqual(["coffee"]);
      expect(report.snoozeCandidates!.map((entry) => entry.key)).toContain("bike");
      expect(report.snoozeCandidates!.map((entry) => entry.key)).not.toContain("coffee");
    });
  });
}
