import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

interface TraceBody {
  results: { key: string }[];
  candidates: { key: string; kept: boolean; reason?: string; detail?: string }[];
  settings: { minScore: number; limit: number; weights: { keyword: number; vector: number } };
  focus?: { verdict: string };
}

describe("memory explain", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    for (const args of [
      ["store", "--key", "city-1", "lives in Berlin"],
      ["store", "--key", "city-2", "moved to Lisbon from Berlin"],
      ["supersede", "city-1", "city-2"],
      ["store", "--key", "trip", "--category", "daily", "a weekend trip to Berlin"],
      ["store", "--key", "zebra", "stripes on the savanna"],
      [
        "store",
        "--key",
        "asked",
        "--category",
        "conversation",
        "User: Where did I live before Berlin?",
      ],
    ]) {
      const done = await ws.run(args);
      expect(done.code, done.stderr).toBe(0);
    }
  });
  afterAll(() => ws.remove());

  it("lists every candidate, kept or dropped with the reason and its factors", async () => {
    const human = await ws.run(["explain", "berlin", "--category", "core"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('explain "berlin" in namespace default: 1 result(s)');
    expect(human.stdout).toMatch(
      /settings: mode hybrid · weighted \(keyword 0\.7, vector 0\.3\) · minScore 0\.3/,
    );
    expect(human.stdout).toMatch(
      /city-1 \[core\] dropped, superseded score 0\.\d+\n {3}superseded by "city-2"/,
    );
    expect(human.stdout).toMatch(/trip \[daily\] dropped, filtered out/);
    expect(human.stdout).toContain('category "daily" is not in categories ["core"]');
    expect(human.stdout).toMatch(
      /keyword #1 \(bm25 [^,]+, relevance [^)]+\) · vector - · relevance/,
    );

    const traced = json<TraceBody>(await ws.run(["explain", "berlin", "-c", "core", "--json"]));
    const recalled = json<{ results: { key: string }[] }>(
      await ws.run(["recall", "berlin", "-c", "core", "--json"]),
    );
    expect(traced.results.map((entry) => entry.key)).toEqual(
      recalled.results.map((entry) => entry.key),
    );
    expect(traced.settings).toMatchObject({ minScore: 0.3, limit: 5 });
    expect(traced.candidates.find((c) => c.key === "city-1")).toMatchObject({
      kept: false,
      reason: "superseded",
    });
  });

  it("says plainly why one key is or is not in the results", async () => {
    const absent = await ws.run(["explain", "berlin", "--key", "zebra"]);
    expect(absent.code, absent.stderr).toBe(0);
    expect(absent.stdout).toContain(
      '"zebra" is not a candidate at all: no query word matches it, and the vector stage did not run',
    );
    const superseded = await ws.run(["explain", "berlin", "--key", "city-1"]);
    expect(superseded.stdout).toContain(
      '"city-1" is a candidate but dropped, superseded: superseded by "city-2"',
    );
    const missing = json<TraceBody>(await ws.run(["explain", "berlin", "--key", "nope", "--json"]));
    expect(missing.focus?.verdict).toContain("no entry has this key");
  });

  it("explains the memory context with --context, the question turn included", async () => {
    const context = await ws.run(["explain", "where", "did", "I", "live", "Berlin", "--context"]);
    expect(context.code, context.stderr).toBe(0);
    expect(context.stdout).toContain('explain the memory context for "where did I live Berlin"');
    expect(context.stdout).toMatch(
      /asked \[conversation\] dropped, a question score [\d.]+\n {3}a question answers nothing/,
    );
    expect(context.stdout).toMatch(/recall \(message\): \d+ result\(s\)/);
    const refused = await ws.run(["explain", "berlin", "--context", "--category", "core"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--category cannot be used with --context");
  });
});
