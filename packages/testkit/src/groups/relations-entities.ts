import type { EmbeddingProvider, Memory, RetrievalSettings } from "@memory/api";
import { expect, type it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";

interface Instances {
  create(embedder?: EmbeddingProvider, settings?: Partial<RetrievalSettings>): Promise<Memory>;
}

/**
 * `entity_reading` (part of the `relations` group; docs/entities.md): an entry's names become
 * `entity` entries joined by `mentions` edges written with the entry, recall leaves entity
 * entries out unless asked for by category, and forgetting the entry removes its edges.
 */
export function relationsEntitiesTests(
  _options: ConformanceOptions,
  instances: Instances,
  withRelations: typeof it,
): void {
  withRelations(
    "entity_reading writes entity entries and mentions edges with the entry, hidden from recall",
    async () => {
      const memory = await instances.create(undefined, { entityReading: true });
      const stored = await memory.store({
        key: "turn-1",
        content: "Caroline: I met Melanie at the Louvre.",
        category: "notes",
      });
      await memory.store({ key: "turn-2", content: "Melanie paints sunsets.", category: "notes" });
      const entities = await memory.list({ categories: ["entity"] });
      expect(entities.map((entry) => [entry.key, entry.content]).sort()).toEqual([
        ["entity:caroline", "Caroline"],
        ["entity:louvre", "Louvre"],
        ["entity:melanie", "Melanie"],
      ]);
      const out = await memory.relations("turn-1", { direction: "out" });
      expect(out.map((edge) => [edge.to, edge.type]).sort()).toEqual([
        ["entity:caroline", "mentions"],
        ["entity:louvre", "mentions"],
        ["entity:melanie", "mentions"],
      ]);
      // Written in the entry's own batch: one time for both.
      expect(out.every((edge) => edge.createdAt === stored.updatedAt)).toBe(true);
      const found = await memory.recall("Melanie", { minScore: 0, limit: 10 });
      expect(found.map((entry) => entry.key).sort()).toEqual(["turn-1", "turn-2"]);
      const asked = await memory.recall("Melanie", { categories: ["entity"], minScore: 0 });
      expect(asked.map((entry) => entry.key)).toEqual(["entity:melanie"]);
      expect(await memory.forget("turn-2")).toBe(true);
      const left = await memory.relations("entity:melanie", { direction: "in" });
      expect(left.map((edge) => edge.from)).toEqual(["turn-1"]);
    },
  );
}
