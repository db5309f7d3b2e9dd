import { afterAll, describe, expect, it } from "vitest";
import { json, requireBuiltCli, Workspace } from "./helpers/run-memory.js";

interface Report {
  daily?: { key: string; category: string; content: string };
  promoted?: { key: string; category: string; content: string };
  importance: number;
  notPromoted?: string;
  superseded: string[];
  conflict?: { mode: string; threshold: number };
  skipped?: string;
}

describe("memory consolidate", () => {
  requireBuiltCli();
  const ws = new Workspace();
  afterAll(() => ws.remove());

  it("stores a daily entry, promotes an important message and supersedes what it contradicts", async () => {
    const first = await ws.run(["consolidate", "--json", "We always deploy on Fridays"]);
    expect(first.code, first.stderr).toBe(0);
    const report = json<Report>(first);
    expect(report.daily).toMatchObject({
      category: "daily",
      content: "User: We always deploy on Fridays",
    });
    expect(report.daily!.key).toMatch(/^daily_\d{4}-\d{2}-\d{2}_[0-9a-f-]{36}$/);
    expect(report.promoted).toMatchObject({
      category: "core",
      content: "We always deploy on Fridays",
    });
    expect(report.promoted!.key).toMatch(/^mem-[0-9a-f]{16}$/);

    const second = await ws.run([
      "consolidate",
      "--reply",
      "Understood.",
      "We never deploy on Fridays",
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("(daily)");
    expect(second.stdout).toContain("promoted to core as mem-");
    expect(second.stdout).toContain(`superseded ${report.promoted!.key}`);

    const old = await ws.run(["get", "--json", report.promoted!.key]);
    expect(json<{ supersededBy?: string }>(old).supersededBy).toMatch(/^mem-/);
  });

  it("reads the message from stdin and says why it was not promoted", async () => {
    const result = await ws.run(["consolidate", "--json"], { input: "I had ramen for lunch\n" });
    expect(result.code, result.stderr).toBe(0);
    const report = json<Report>(result);
    expect(report).toMatchObject({ notPromoted: "importance", superseded: [] });
    expect(report.daily!.content).toBe("User: I had ramen for lunch");
    const human = await ws.run(["consolidate", "lunch was good"]);
    expect(human.stdout).toContain("not promoted: importance 0.70");
  });
});

describe("memory store with conflict detection on (the default)", () => {
  requireBuiltCli();
  const ws = new Workspace("", 'embedding_provider = "noop"');
  afterAll(() => ws.remove());

  it("says how the entry was read, which older entry it superseded and why", async () => {
    const first = await ws.run(["store", "-k", "home", "Alice lives in Berlin with her cat"]);
    expect(first.code, first.stderr).toBe(0);
    const second = await ws.run(["store", "-k", "home-now", "Alice moved to Munich last month"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("read as: alice · lives_in (single) = Munich [change]");
    expect(second.stdout).toMatch(
      /superseded home: lives_in is single-valued: "Berlin" -> "Munich"/,
    );
    expect(second.stdout).toContain("  read as: alice · lives_in (single) = Berlin");
    const unrelated = await ws.run(["store", "--json", "-k", "bob", "Bob lives in Paris"]);
    const decision = json<{ conflict?: { superseded: string[]; candidates: { rule?: string }[] } }>(
      unrelated,
    ).conflict;
    expect(decision?.superseded).toEqual([]);
    expect(decision?.candidates.map((candidate) => candidate.rule)).toContain("different-subjects");
    const old = await ws.run(["get", "--json", "home"]);
    expect(json<{ supersededBy?: string }>(old).supersededBy).toBe("home-now");
  });
});
