import { describe, expect, it } from "vitest";
import { createInMemoryDriver, createMemoryFacade } from "../src/index.js";

function memoryWith(graphExpansion: boolean) {
  return createMemoryFacade(createInMemoryDriver(), {
    settings: { entityReading: true, graphExpansion, searchMode: "bm25" },
    logger: () => {},
  });
}

const TURNS: [string, string][] = [
  ["t1", "Caroline: I adopted a dog from the Riverside shelter."],
  ["t2", "Caroline: Biscuit loves the beach."],
  ["t3", "Caroline: Biscuit chewed my shoes again!"],
  ["t4", "Caroline: I painted the kitchen blue."],
  ["t5", "Caroline: The weather is nice today."],
];

async function seeded(graphExpansion: boolean) {
  const memory = memoryWith(graphExpansion);
  for (const [key, content] of TURNS) await memory.store({ key, content, category: "notes" });
  await memory.relate("t4", "t5", "causes");
  return memory;
}

describe("graph expansion (graph_expansion)", () => {
  it("is off by default: recall follows no edge", async () => {
    await using memory = await seeded(false);
    const found = await memory.recall("Why did Caroline paint the kitchen?", {
      limit: 10,
      minScore: 0,
    });
    expect(found.map((entry) => entry.key)).toContain("t5");
    expect(found.every((entry) => entry.explain?.graph === undefined)).toBe(true);
    const trace = await memory.explainRecall("Why did Caroline paint the kitchen?", { limit: 10 });
    expect(trace.stages.map((stage) => stage.name)).not.toContain("graph");
  });

  it("adds an entry related to a good candidate, and says through which edge", async () => {
    await using memory = await seeded(true);
    const found = await memory.recall("Why did Caroline paint the kitchen?", {
      limit: 10,
      minScore: 0,
    });
    const added = found.find((entry) => entry.key === "t5");
    expect(added?.explain?.graph?.via).toContainEqual({ from: "t4", type: "causes" });
    expect(added!.explain!.graph!.lift).toBeGreaterThan(0);
    const trace = await memory.explainRecall("Why did Caroline paint the kitchen?", { limit: 10 });
    expect(trace.stages.find((stage) => stage.name === "graph")?.count).toBeGreaterThan(0);
  });

  it("joins entries through a rare entity they share, and a speaker's name counts for little", async () => {
    await using memory = await seeded(true);
    const found = await memory.recall("What did Biscuit chew?", { limit: 10, minScore: 0 });
    const beach = found.find((entry) => entry.key === "t2");
    expect(beach?.explain?.graph?.via).toContainEqual({
      from: "t3",
      type: "mentions",
      through: "entity:biscuit",
    });
    // "Caroline" names every entry: what it bridges is raised less than what "Biscuit" bridges.
    const kitchen = found.find((entry) => entry.key === "t4");
    expect(kitchen?.explain?.graph?.lift ?? 0).toBeLessThan(beach!.explain!.graph!.lift);
  });

  it("never adds an entry the recall's filter leaves out", async () => {
    await using memory = await seeded(true);
    await memory.store({
      key: "other",
      content: "Biscuit met Rex at the park.",
      category: "daily",
    });
    const found = await memory.recall("What did Biscuit chew?", {
      limit: 10,
      categories: ["notes"],
    });
    expect(found.map((entry) => entry.key)).not.toContain("other");
  });
});
