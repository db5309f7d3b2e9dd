import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

interface EntityJson {
  id: string;
  key: string;
  name: string;
  mentions: number;
}

describe("memory entities and memory entity (SQLite, entity_reading = true)", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace("", 'embedding_provider = "noop"\nentity_reading = true');
    // A custom category: the conflict rules (core only) stay out of this test.
    for (const [key, text] of [
      ["t1", "Caroline: I went to a support group in Boston."],
      ["t2", "Melanie: Caroline, that is brave! I painted a sunrise."],
      ["t3", "Caroline: Melanie, come to Boston with me next month."],
    ])
      await ws.run(["store", text!, "--key", key!, "--category", "notes"]);
  }, 120_000);
  afterAll(() => ws.remove());

  it("lists entities most mentioned first, --top bounding the list", async () => {
    const all = json<EntityJson[]>(await ws.run(["entities", "--json"]));
    expect(all.map((entity) => [entity.name, entity.mentions])).toEqual([
      ["Caroline", 3],
      ["Boston", 2],
      ["Melanie", 2],
    ]);
    const top = await ws.run(["entities", "--top", "1"]);
    expect(top.code, top.stderr).toBe(0);
    expect(top.stdout).toContain("Caroline");
    expect(top.stdout).not.toContain("Boston");
  });

  it("shows what the memory says about an entity, newest first, and exits 3 for an unknown one", async () => {
    const report = json<{ name: string; entries: { key: string }[] }>(
      await ws.run(["entity", "boston", "--json"]),
    );
    expect(report.name).toBe("Boston");
    expect(report.entries.map((entry) => entry.key)).toEqual(["t3", "t1"]);
    const text = await ws.run(["entity", "Melanie's"]);
    expect(text.stdout).toContain("Melanie (entity:melanie): named by 2 entries");
    const missing = await ws.run(["entity", "Nobody"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain("memory entities");
  });

  it("keeps entity entries out of recall", async () => {
    const found = json<{ results: { key: string }[] }>(
      await ws.run(["recall", "Boston", "--json"]),
    );
    expect(found.results.map((entry) => entry.key).sort()).toEqual(["t1", "t3"]);
  });
});

describe("memory recall --explain with graph_expansion = true", () => {
  it("shows what following relations added, and through which edge", async () => {
    const ws = new Workspace(
      "",
      'embedding_provider = "noop"\nentity_reading = true\ngraph_expansion = true',
    );
    try {
      await ws.run([
        "store",
        "Caroline: I painted the kitchen blue.",
        "--key",
        "t4",
        "-c",
        "notes",
      ]);
      await ws.run(["store", "Caroline: The weather is nice.", "--key", "t5", "-c", "notes"]);
      await ws.run(["relate", "t4", "t5", "causes"]);
      const result = await ws.run([
        "recall",
        "Why did Caroline paint the kitchen?",
        "--explain",
        "--min-score",
        "0",
      ]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/graph \+0\.\d+ via t4 -causes->/);
    } finally {
      ws.remove();
    }
  }, 60_000);
});
