import type { ImportEntry, Memory, RetrievalSettings } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith } from "../declarations.js";
import { keys, useInstances } from "../fixture.js";

const ENTRIES: ImportEntry[] = [
  { key: "plural", content: "Weekly meetings about the garden" },
  { key: "singular", content: "Ran the meeting on Monday" },
  { key: "other", content: "Bought tomatoes at the market" },
];

const scored = (results: readonly { key: string; score?: number }[]) =>
  results.map((entry) => [entry.key, entry.score!.toFixed(9)]);

/**
 * `text_language`: `english` stems words and drops stop words from queries, `none` keeps words
 * as typed; reopening a store with the other language re-indexes it so that it answers exactly
 * like a store written with that language from the start.
 */
export function textLanguageGroup(options: ConformanceOptions): void {
  describe(`${options.name}: text language`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);
    const recall = (memory: Memory, query: string) =>
      memory.recall(query, { mode: "bm25", limit: 10, minScore: 0 });

    /** Opens of one shared store that apply settings. */
    const sharedWithSettings = async () => {
      const shared = await instances.shared();
      const open = (settings: Partial<RetrievalSettings>) => shared.openWith({ settings });
      const probe = await open({ searchMode: "bm25" });
      await probe.store({ key: "settings-probe", content: "settings probe" });
      const [hit] = await probe.recall("probe");
      await probe.forget("settings-probe");
      await probe.close();
      expect(hit?.explain?.mode, "createShared().open must pass context.settings on").toBe("bm25");
      return open;
    };

    it("english stems and drops stop words; none keeps words as typed", async () => {
      const english = await instances.create(undefined, { textLanguage: "english" });
      const none = await instances.create(undefined, { textLanguage: "none" });
      await english.importEntries(ENTRIES);
      await none.importEntries(ENTRIES);
      expect(keys(await recall(english, "meeting")).sort()).toEqual(["plural", "singular"]);
      const noneHits = keys(await recall(none, "meeting"));
      expect(noneHits, "the factory must pass context.settings on").not.toContain("plural");
      expect(noneHits).toEqual(["singular"]);
      expect(keys(await recall(none, "meetings"))).toEqual(["plural"]);
      // "the" is a stop word in english (a query of stop words only is weak), an ordinary word in none.
      const the = await recall(none, "the garden");
      expect(keys(the)[0]).toBe("plural");
      expect(keys(the)).toContain("other");
    });

    itWith(options, "sharedStore")(
      "reopening with another language re-indexes: the same answers as a store written with it",
      async () => {
        const open = await sharedWithSettings();
        const first = await open({ textLanguage: "english" });
        await first.importEntries(ENTRIES);
        expect(keys(await recall(first, "meeting")).sort()).toEqual(["plural", "singular"]);
        await first.close();

        const reopened = await open({ textLanguage: "none" });
        const fresh = await instances.create(undefined, { textLanguage: "none" });
        await fresh.importEntries(ENTRIES);
        for (const query of ["meeting", "meetings", "the garden", "weekly market"]) {
          expect(scored(await recall(reopened, query)), query).toEqual(
            scored(await recall(fresh, query)),
          );
        }
        // Writes after the switch are indexed with the new language too.
        await reopened.store({ key: "late", content: "Two more meetings" });
        expect(keys(await recall(reopened, "meetings")).sort()).toEqual(["late", "plural"]);
        await reopened.close();

        const back = await open({ textLanguage: "english" });
        expect(keys(await recall(back, "meeting")).sort()).toEqual(["late", "plural", "singular"]);
      },
    );
  });
}
