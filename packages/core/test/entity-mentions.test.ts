import { describe, expect, it } from "vitest";
import {
  createInMemoryDriver,
  createMemoryFacade,
  ENTITY_CATEGORY,
  entityReport,
  listEntities,
} from "../src/index.js";

function memoryWith(entityReading: boolean) {
  return createMemoryFacade(createInMemoryDriver(), {
    settings: { entityReading },
    logger: () => {},
  });
}

describe("entities read on store (entity_reading)", () => {
  it("writes one entity entry per name and a mentions edge from the entry", async () => {
    await using memory = memoryWith(true);
    await memory.store({ key: "t1", content: "Caroline: I met Melanie at the Louvre in Paris." });
    await memory.store({ key: "t2", content: "Melanie's kids love camping.", category: "daily" });
    const entities = await memory.list({ categories: [ENTITY_CATEGORY] });
    expect(entities.map((entry) => [entry.key, entry.content]).sort()).toEqual([
      ["entity:caroline", "Caroline"],
      ["entity:louvre", "Louvre"],
      ["entity:melanie", "Melanie"],
      ["entity:paris", "Paris"],
    ]);
    const edges = await memory.relations("entity:melanie", { direction: "in" });
    expect(edges.map((edge) => [edge.from, edge.type]).sort()).toEqual([
      ["t1", "mentions"],
      ["t2", "mentions"],
    ]);
  });

  it("reads nothing when entity_reading is off (the default)", async () => {
    await using memory = createMemoryFacade(createInMemoryDriver(), { logger: () => {} });
    await memory.store({ key: "t1", content: "Caroline met Melanie in Paris." });
    expect(await memory.count()).toBe(1);
    expect(await memory.relations("t1")).toEqual([]);
  });

  it("keeps entity entries out of recall unless categories names them", async () => {
    await using memory = memoryWith(true);
    await memory.store({ key: "t1", content: "Melanie painted a sunrise over the lake." });
    await memory.store({ key: "t2", content: "Melanie runs a charity race with Caroline." });
    const found = await memory.recall("Melanie", { limit: 10 });
    expect(found.map((entry) => entry.key).sort()).toEqual(["t1", "t2"]);
    const recent = await memory.recall("*", { limit: 2 });
    expect(recent.map((entry) => entry.key).sort()).toEqual(["t1", "t2"]);
    const asked = await memory.recall("Melanie", { categories: [ENTITY_CATEGORY] });
    expect(asked.map((entry) => entry.key)).toEqual(["entity:melanie"]);
    const trace = await memory.explainRecall("Melanie", { limit: 10 });
    const dropped = trace.candidates.find((candidate) => candidate.key === "entity:melanie");
    expect(dropped?.reason).toBe("filtered");
  });

  it("drops the mentions a re-stored entry no longer makes", async () => {
    await using memory = memoryWith(true);
    await memory.store({ key: "t1", content: "Lunch with Zoe at Nobu." });
    await memory.store({ key: "t1", content: "Lunch with Arjun at Nobu." });
    const targets = (await memory.relations("t1", { direction: "out" })).map((edge) => edge.to);
    expect(targets.sort()).toEqual(["entity:arjun", "entity:nobu"]);
    const entities = await listEntities(memory);
    expect(entities.map((entity) => entity.id).sort()).toEqual(["arjun", "nobu"]);
  });

  it("reads the entities of an import in the import's batches", async () => {
    await using memory = memoryWith(true);
    const report = await memory.importEntries([
      { key: "a", content: "Jon: I opened a dance studio in Chicago." },
      { key: "b", content: "Gina: Jon, that is great! Chicago needs one." },
      { key: "c", content: "Gina: I sell clothes on Etsy now." },
    ]);
    expect(report.imported).toBe(3);
    const entities = await listEntities(memory, { top: 2 });
    expect(entities).toEqual([
      { id: "chicago", key: "entity:chicago", name: "Chicago", mentions: 2 },
      { id: "gina", key: "entity:gina", name: "Gina", mentions: 2 },
    ]);
  });

  it("reports what the memory says about an entity, newest first, whatever the spelling", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    await using memory = createMemoryFacade(createInMemoryDriver(), {
      settings: { entityReading: true },
      now: () => now,
      logger: () => {},
    });
    await memory.importEntries([
      { key: "old", content: "Priya moved to Jaipur.", updatedAt: "2026-01-01T00:00:00.000Z" },
      {
        key: "new",
        content: "Priya's wedding is in Jaipur.",
        updatedAt: "2026-02-01T00:00:00.000Z",
      },
      { key: "other", content: "Zoe is vegan.", updatedAt: "2026-03-01T00:00:00.000Z" },
    ]);
    now += 1;
    const report = await entityReport(memory, "PRIYA'S");
    expect(report.name).toBe("Priya");
    expect(report.mentions).toBe(2);
    expect(report.entries.map((entry) => entry.key)).toEqual(["new", "old"]);
    await expect(entityReport(memory, "Nobody")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(entityReport(memory, "!!")).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("leaves an entity no entry names any more out of the list", async () => {
    await using memory = memoryWith(true);
    await memory.store({ key: "t1", content: "Dinner with Lena." });
    await memory.forget("t1");
    expect(await memory.get("entity:lena")).not.toBeNull();
    expect(await listEntities(memory)).toEqual([]);
    await expect(entityReport(memory, "Lena")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
