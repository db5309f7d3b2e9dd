import { type ImportEntry, type Memory, MemoryError, type Relation } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { declares, itWith } from "../declarations.js";
import { useInstances } from "../fixture.js";
import { relationsEntitiesTests } from "./relations-entities.js";
import { relationsLinkTests } from "./relations-link.js";

/** The thrown error's code (fails the test when nothing or something untyped is thrown). */
export async function codeOf(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    expect(MemoryError.isInstance(error), `typed error, got ${String(error)}`).toBe(true);
    return (error as MemoryError).code;
  }
  throw new Error("expected a typed error, nothing was thrown");
}

/** Edges as comparable tuples, sorted. */
export function edges(relations: readonly Relation[]): string[] {
  return relations.map((r) => `${r.from} -${r.type}:${r.weight}-> ${r.to}`).sort();
}

async function seed(memory: Memory, namespace?: string): Promise<void> {
  const ns = namespace === undefined ? {} : { namespace };
  await memory.store({ key: "rain", content: "It rained all morning", category: "daily", ...ns });
  await memory.store({
    key: "late",
    content: "The user was late to work",
    category: "daily",
    ...ns,
  });
  await memory.store({ key: "bus", content: "The bus broke down", category: "daily", ...ns });
}

/**
 * Relations (`capabilities.relations`): typed, weighted, directed edges between entries of one
 * namespace, written through the driver's write batch, removed with their entries, exported
 * and imported with them. A backend that does not declare them must refuse every relation
 * operation with UNSUPPORTED (that test runs for it instead).
 */
export function relationsGroup(options: ConformanceOptions): void {
  const withRelations = itWith(options, "relations");
  describe(`${options.name}: relations`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    if (!declares(options, "relations")) {
      it("refuses relate, unrelate and relations with UNSUPPORTED, and reports imported relations as not written", async () => {
        const memory = await instances.create();
        await seed(memory);
        expect(memory.capabilities.relations ?? false).toBe(false);
        expect(await codeOf(() => memory.relate("late", "rain", "causes"))).toBe("UNSUPPORTED");
        expect(await codeOf(() => memory.unrelate("late", "rain"))).toBe("UNSUPPORTED");
        expect(await codeOf(() => memory.relations("late"))).toBe("UNSUPPORTED");
        const report = await memory.importEntries([
          { key: "a", content: "first", relations: [{ to: "rain", type: "follows", weight: 1 }] },
        ]);
        expect(report.imported).toBe(1);
        expect(report.relations?.rejected.map((r) => r.code)).toEqual(["UNSUPPORTED"]);
      });
      return;
    }

    withRelations("relates two entries and reads the edge from both ends", async () => {
      const memory = await instances.create();
      await seed(memory);
      expect(memory.capabilities.relations).toBe(true);
      const edge = await memory.relate("rain", "late", "causes", {
        weight: 0.6,
        metadata: { note: "traffic", hops: [1, 2] },
      });
      expect(edge).toMatchObject({
        namespace: "default",
        from: "rain",
        to: "late",
        type: "causes",
        weight: 0.6,
        metadata: { note: "traffic", hops: [1, 2] },
      });
      expect(edge.createdAt).toBe(edge.updatedAt);
      await memory.relate("bus", "late", "causes", { weight: 0.9 });
      await memory.relate("late", "rain", "mentions");
      expect(edges(await memory.relations("rain", { direction: "out" }))).toEqual([
        "rain -causes:0.6-> late",
      ]);
      const incoming = await memory.relations("late", { direction: "in" });
      // Strongest first.
      expect(incoming.map((r) => r.from)).toEqual(["bus", "rain"]);
      expect(edges(await memory.relations("late"))).toEqual([
        "bus -causes:0.9-> late",
        "late -mentions:1-> rain",
        "rain -causes:0.6-> late",
      ]);
      expect(edges(await memory.relations("late", { types: ["mentions"] }))).toEqual([
        "late -mentions:1-> rain",
      ]);
      expect(await memory.relations("late", { limit: 1 })).toHaveLength(1);
      const [read] = await memory.relations("rain", { direction: "out" });
      expect(read!.metadata).toEqual({ note: "traffic", hops: [1, 2] });
    });

    withRelations("relating again is idempotent and keeps the stronger weight", async () => {
      const memory = await instances.create();
      await seed(memory);
      const first = await memory.relate("rain", "late", "causes", { weight: 0.4 });
      const stronger = await memory.relate("rain", "late", "causes", { weight: 0.9 });
      const weaker = await memory.relate("rain", "late", "causes", {
        weight: 0.2,
        metadata: { seen: 3 },
      });
      expect(stronger.weight).toBe(0.9);
      expect(weaker.weight).toBe(0.9);
      expect(weaker.metadata).toEqual({ seen: 3 });
      expect(weaker.createdAt).toBe(first.createdAt);
      const stored = await memory.relations("rain");
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ weight: 0.9, metadata: { seen: 3 } });
      // Another type is another edge.
      await memory.relate("rain", "late", "supports", { weight: 0.1 });
      expect(edges(await memory.relations("rain"))).toEqual([
        "rain -causes:0.9-> late",
        "rain -supports:0.1-> late",
      ]);
    });

    withRelations(
      "refuses bad relations with typed errors that say what to do, writing nothing",
      async () => {
        const memory = await instances.create();
        await seed(memory);
        const missing = memory.relate("rain", "nowhere", "causes");
        await expect(missing).rejects.toMatchObject({ code: "NOT_FOUND" });
        await expect(missing).rejects.toThrow(/store it first/);
        expect(await codeOf(() => memory.relate("nowhere", "rain", "causes"))).toBe("NOT_FOUND");
        await expect(memory.relate("rain", "rain", "causes")).rejects.toThrow(/itself/);
        expect(await codeOf(() => memory.relate("rain", "rain", "causes"))).toBe("INVALID_INPUT");
        for (const type of ["", "has space", "a/b", "x".repeat(65)])
          expect(await codeOf(() => memory.relate("rain", "late", type))).toBe("INVALID_INPUT");
        for (const weight of [-0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1" as never])
          expect(await codeOf(() => memory.relate("rain", "late", "causes", { weight }))).toBe(
            "INVALID_INPUT",
          );
        for (const metadata of [[1] as never, "x" as never, { big: "y".repeat(20_000) }])
          expect(await codeOf(() => memory.relate("rain", "late", "causes", { metadata }))).toBe(
            "INVALID_INPUT",
          );
        await memory.store({ key: "late", content: "elsewhere", namespace: "other" });
        const crossing = memory.relate("rain", "late", "causes", { toNamespace: "other" });
        await expect(crossing).rejects.toMatchObject({ code: "INVALID_INPUT" });
        await expect(crossing).rejects.toThrow(/one namespace/);
        expect(await codeOf(() => memory.relations("nowhere"))).toBe("NOT_FOUND");
        expect(await codeOf(() => memory.relations("rain", { direction: "up" as never }))).toBe(
          "INVALID_INPUT",
        );
        expect(await memory.relations("rain")).toEqual([]);
        expect(await memory.relations("late", { namespace: "other" })).toEqual([]);
      },
    );

    withRelations("custom types are accepted like custom categories", async () => {
      const memory = await instances.create();
      await seed(memory);
      await memory.relate("bus", "late", "made-worse_by");
      expect((await memory.relations("bus"))[0]!.type).toBe("made-worse_by");
    });

    withRelations("unrelate removes one type or every type, and counts", async () => {
      const memory = await instances.create();
      await seed(memory);
      await memory.relate("rain", "late", "causes");
      await memory.relate("rain", "late", "supports");
      await memory.relate("bus", "late", "causes");
      expect(await memory.unrelate("rain", "late", "supports")).toBe(1);
      expect(await memory.unrelate("rain", "late", "supports")).toBe(0);
      await memory.relate("rain", "late", "mentions");
      expect(await memory.unrelate("rain", "late")).toBe(2);
      expect(edges(await memory.relations("late"))).toEqual(["bus -causes:1-> late"]);
    });

    withRelations(
      "edges go with their entries (forget, purge, deleteEntries), not with supersession",
      async () => {
        const memory = await instances.create();
        await seed(memory);
        await memory.store({
          key: "rain-2",
          content: "The rain stopped at noon",
          category: "daily",
        });
        await memory.relate("rain", "late", "causes");
        await memory.relate("bus", "late", "causes");
        await memory.relate("rain-2", "rain", "follows");
        // Superseding keeps edges: the entry stays for audit.
        expect(await memory.markSuperseded("rain", "rain-2")).toBe(true);
        expect(edges(await memory.relations("rain"))).toEqual([
          "rain -causes:1-> late",
          "rain-2 -follows:1-> rain",
        ]);
        // Storing a key again keeps its edges (same entry).
        await memory.store({ key: "late", content: "The user was very late", category: "daily" });
        expect(await memory.relations("late")).toHaveLength(2);
        expect(await memory.forget("late")).toBe(true);
        expect(edges(await memory.relations("rain"))).toEqual(["rain-2 -follows:1-> rain"]);
        expect(await memory.relations("bus")).toEqual([]);
        // A key stored anew after being forgotten starts without edges.
        await memory.store({ key: "late", content: "late again", category: "daily" });
        expect(await memory.relations("late")).toEqual([]);

        await memory.store({ key: "s1", content: "session one", sessionId: "s" });
        await memory.relate("s1", "bus", "mentions");
        expect(await memory.purgeSession("s")).toBe(1);
        expect(await memory.relations("bus")).toEqual([]);

        await memory.relate("bus", "rain", "causes");
        const report = await memory.deleteEntries({ categories: ["daily"], superseded: true });
        expect(report.deleted).toBe(1);
        expect(await memory.relations("bus")).toEqual([]);
        expect(await memory.relations("rain-2")).toEqual([]);
      },
    );

    withRelations("purgeNamespace removes that namespace's edges only", async () => {
      const memory = await instances.create();
      await seed(memory);
      await seed(memory, "other");
      await memory.relate("rain", "late", "causes");
      await memory.relate("rain", "late", "causes", { namespace: "other", weight: 0.3 });
      expect(edges(await memory.relations("late", { namespace: "other" }))).toEqual([
        "rain -causes:0.3-> late",
      ]);
      expect(edges(await memory.relations("late"))).toEqual(["rain -causes:1-> late"]);
      expect(await memory.unrelate("rain", "late", undefined, { namespace: "other" })).toBe(1);
      expect(await memory.relations("late")).toHaveLength(1);
      await memory.relate("bus", "late", "causes", { namespace: "other" });
      await memory.purgeNamespace("other");
      expect(edges(await memory.relations("late"))).toEqual(["rain -causes:1-> late"]);
      await seed(memory, "other");
      expect(await memory.relations("late", { namespace: "other" })).toEqual([]);
    });

    withRelations(
      "export carries each entry's outgoing edges and import restores them, in any order",
      async () => {
        const source = await instances.create();
        await seed(source);
        await source.relate("rain", "late", "causes", { weight: 0.7, metadata: { why: "wet" } });
        // From an older entry to a newer one: the import meets the edge before its target.
        await source.relate("rain", "bus", "follows", { weight: 0.25 });
        await source.relate("bus", "late", "causes");
        const exported = [];
        for await (const entry of source.export()) exported.push(entry);
        const rain = exported.find((entry) => entry.key === "rain")!;
        expect(rain.relations?.map((r) => r.to).sort()).toEqual(["bus", "late"]);
        expect(exported.find((entry) => entry.key === "late")!.relations).toBeUndefined();

        const target = await instances.create();
        const report = await target.importEntries(exported as ImportEntry[]);
        expect(report.imported).toBe(3);
        expect(report.relations).toEqual({ imported: 3, rejected: [] });
        const before = await source.relations("late", { direction: "both" });
        const after = await target.relations("late", { direction: "both" });
        expect(after).toEqual(before);
        expect(edges(await target.relations("rain"))).toEqual(
          edges(await source.relations("rain")),
        );
        // Importing the same export again changes nothing.
        const again = await target.importEntries(exported as ImportEntry[]);
        expect(again.relations).toEqual({ imported: 3, rejected: [] });
        expect(await target.relations("late")).toEqual(after);
      },
    );

    withRelations(
      "imports format-1 lines (no relations), rejects edges whose target never came, keeps the entry",
      async () => {
        const memory = await instances.create();
        const report = await memory.importEntries([
          { key: "old", content: "an entry from a format-1 export" },
          {
            key: "new",
            content: "an entry of format 2",
            relations: [
              { to: "old", type: "derived_from", weight: 0.5 },
              { to: "ghost", type: "mentions", weight: 1 },
            ],
          },
          {
            key: "bad",
            content: "bad edges",
            relations: [{ to: "old", type: "no good" }] as never,
          },
        ]);
        expect(report.imported).toBe(2);
        expect(report.rejected.map((r) => [r.index, r.code])).toEqual([[2, "INVALID_INPUT"]]);
        expect(report.relations?.imported).toBe(1);
        expect(report.relations?.rejected).toMatchObject([
          { index: 1, key: "new", code: "NOT_FOUND" },
        ]);
        expect(report.relations?.rejected[0]?.message).toMatch(/ghost/);
        expect(edges(await memory.relations("old"))).toEqual(["new -derived_from:0.5-> old"]);
        expect(await memory.get("bad")).toBeNull();
      },
    );

    relationsLinkTests(options, instances, withRelations);
    relationsEntitiesTests(options, instances, withRelations);
  });
}
