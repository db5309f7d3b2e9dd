import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

interface GraphJson {
  root: string;
  depth: number;
  nodes: { key: string; depth: number; content?: string }[];
  edges: { from: string; to: string; type: string; weight: number }[];
  truncated: boolean;
}

const edgesOf = (graph: GraphJson) =>
  graph.edges.map((edge) => `${edge.from} -${edge.type}:${edge.weight}-> ${edge.to}`).sort();

describe("memory relate, unrelate, graph; relations through export, import and migrate (SQLite)", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    for (const [key, text] of [
      ["rain", "It rained all morning"],
      ["late", "The user was late to work"],
      ["boss", "The boss was annoyed"],
      ["raise", "The raise was postponed"],
    ])
      await ws.run(["store", text!, "--key", key!]);
  }, 120_000);
  afterAll(() => ws.remove());

  it("relates, walks the graph breadth-first within --depth, and unrelates", async () => {
    const related = await ws.run(["relate", "rain", "late", "causes", "--weight", "0.6"]);
    expect(related.code, related.stderr).toBe(0);
    expect(related.stdout).toContain("related rain -causes-> late (weight 0.6, namespace default)");
    await ws.run(["relate", "late", "boss", "causes", "--metadata", '{"source":"chat"}']);
    await ws.run(["relate", "boss", "raise", "causes"]);
    const near = json<GraphJson>(await ws.run(["graph", "rain", "--depth", "2", "--json"]));
    expect(near.nodes.map((node) => [node.key, node.depth])).toEqual([
      ["rain", 0],
      ["late", 1],
      ["boss", 2],
    ]);
    expect(edgesOf(near)).toEqual(["late -causes:1-> boss", "rain -causes:0.6-> late"]);
    const far = json<GraphJson>(await ws.run(["graph", "boss", "--json"]));
    expect(far.nodes.map((node) => node.key).sort()).toEqual(["boss", "late", "rain", "raise"]);
    const text = await ws.run(["graph", "late", "--depth", "1"]);
    expect(text.stdout).toContain("3 entries and 2 relations within 1 step of late");
    expect(text.stdout).toContain("rain -causes (0.6)-> late");
    const removed = await ws.run(["unrelate", "boss", "raise", "--json"]);
    expect(json(removed)).toMatchObject({ removed: 1 });
    expect(edgesOf(json<GraphJson>(await ws.run(["graph", "raise", "--json"])))).toEqual([]);
  });

  it("exits 3 for a missing entry and 2 for bad input, with one line that says what to do", async () => {
    const cases = [
      [["relate", "rain", "nowhere", "causes"], 3, "store it first"],
      [["relate", "rain", "rain", "causes"], 2, "itself"],
      [["relate", "rain", "late", "no spaces"], 2, "relation type"],
      [["relate", "rain", "late", "causes", "--weight", "1.5"], 2, "from 0 to 1"],
      [["relate", "rain", "late", "causes", "--metadata", "[1]"], 2, "JSON object"],
      [["graph", "nowhere"], 3, "store it first"],
      [["graph", "rain", "--depth", "4"], 2, "from 1 to 3"],
    ] as const;
    for (const [args, code, words] of cases) {
      const result = await ws.run(args);
      expect(result.code, args.join(" ")).toBe(code);
      expect(result.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(result.stderr, args.join(" ")).toContain(words);
    }
  });

  it("exports edges with their entries and imports them (format 1 lines still import)", async () => {
    const exported = (await ws.run(["export"])).stdout;
    const rain = exported
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .find((entry) => entry.key === "rain");
    expect(rain.relations).toMatchObject([{ to: "late", type: "causes", weight: 0.6 }]);
    const other = new Workspace();
    try {
      writeFileSync(other.file("export.jsonl"), exported);
      const result = await other.run(["import", "export.jsonl", "--json"]);
      expect(result.code, result.stderr).toBe(0);
      expect(json(result)).toMatchObject({ imported: 4, relations: { imported: 2, rejected: [] } });
      expect(edgesOf(json<GraphJson>(await other.run(["graph", "late", "--json"])))).toEqual([
        "late -causes:1-> boss",
        "rain -causes:0.6-> late",
      ]);
      writeFileSync(
        other.file("old.jsonl"),
        `${JSON.stringify({ key: "v1", content: "a line of a format-1 export" })}\n${JSON.stringify({ key: "v2", content: "points nowhere", relations: [{ to: "ghost", type: "mentions" }] })}\n`,
      );
      const old = await other.run(["import", "old.jsonl", "--json"]);
      expect(old.code).toBe(1);
      expect(json(old)).toMatchObject({
        imported: 2,
        rejected: [],
        relations: { imported: 0, rejected: [{ line: 2, code: "NOT_FOUND" }] },
      });
    } finally {
      other.remove();
    }
  });

  it("migrates edges, also those to entries of a later batch", async () => {
    // rain (oldest) -> raise (newest): with one entry per batch, its target comes later.
    await ws.run(["relate", "rain", "raise", "follows", "--weight", "0.3"]);
    ws.writeConfig(
      "to.toml",
      '[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = "copy/brain.db"\n',
    );
    const result = await ws.run([
      "migrate",
      "--from",
      "memory.toml",
      "--to",
      "to.toml",
      "--batch-size",
      "1",
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ copied: 4, rejected: [], relationsCopied: 3 });
    const source = json<GraphJson>(await ws.run(["graph", "rain", "--depth", "3", "--json"]));
    const copy = json<GraphJson>(
      await ws.run(["--config", "to.toml", "graph", "rain", "--depth", "3", "--json"]),
    );
    expect(edgesOf(copy)).toEqual(edgesOf(source));
    expect(edgesOf(copy)).toContain("rain -follows:0.3-> raise");
  });
});
