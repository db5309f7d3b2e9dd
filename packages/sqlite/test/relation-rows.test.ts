import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

// findRelations answers a namespace without edges from one primary-key seek (every recall asks
// for its results' `contradicts` edges); these pin that the seek never hides an edge.
describe("findRelations: namespaces without edges", () => {
  it("finds nothing in an edgeless namespace while another has edges, and a new edge at once", async () => {
    const memory = createSqliteMemory({ path: tempDbPath(), logger: () => {} });
    for (const namespace of ["work", "home"]) {
      await memory.store({ key: "cause", content: "The server ran out of disk", namespace });
      await memory.store({ key: "effect", content: "The nightly backup failed", namespace });
    }
    await memory.relate("cause", "effect", "causes", { namespace: "work" });
    expect(await memory.relations("cause", { namespace: "home" })).toEqual([]);
    expect(await memory.relations("effect", { namespace: "work" })).toMatchObject([
      { from: "cause", to: "effect", type: "causes", namespace: "work" },
    ]);
    await memory.relate("effect", "cause", "contradicts", { namespace: "home" });
    expect(await memory.relations("cause", { namespace: "home" })).toMatchObject([
      { from: "effect", to: "cause", type: "contradicts", namespace: "home" },
    ]);
    await memory.close();
  });

  it("still orders a recall's contradicting result above the one it contradicts", async () => {
    const memory = createSqliteMemory({ path: tempDbPath(), recallCacheSize: 0, logger: () => {} });
    await memory.store({ key: "old", content: "Paris museums to visit: Paris Louvre, Orsay" });
    await memory.store({ key: "new", content: "Restaurant bookings for the Paris weekend" });
    const before = await memory.recall("Paris museums", { mode: "bm25", minScore: 0 });
    expect(before.map((entry) => entry.key)).toEqual(["old", "new"]);
    await memory.relate("new", "old", "contradicts");
    const after = await memory.recall("Paris museums", { mode: "bm25", minScore: 0 });
    expect(after.map((entry) => entry.key)).toEqual(["new", "old"]);
    expect(after[0]!.explain?.contradicts).toEqual(["old"]);
    await memory.close();
  });
});
