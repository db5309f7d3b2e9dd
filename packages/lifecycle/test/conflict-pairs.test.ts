import { createTestEmbedder } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { type ConflictPair, loadConflictPairs, SUPERSEDE_LABELS } from "./conflict-pairs.js";
import { fresh } from "./fresh-memory.js";

const PAIRS = loadConflictPairs();

/** Stores each pair with the default conflict settings (mode on) and reads what was superseded. */
async function outcomes(withEmbedder: boolean) {
  const memory = fresh({
    ...(withEmbedder ? { embedder: createTestEmbedder({ dimensions: 256 }) } : {}),
    settings: { conflict_mode: "combined" },
  });
  const results: { pair: ConflictPair; superseded: boolean }[] = [];
  for (const [index, pair] of PAIRS.entries()) {
    const namespace = `pair-${index}`;
    await memory.store({ key: "older", content: pair.older, namespace });
    await memory.store({ key: "newer", content: pair.newer, namespace });
    const older = await memory.get("older", { namespace });
    results.push({ pair, superseded: older!.supersededBy === "newer" });
  }
  const truePositives = results.filter((r) => r.superseded && SUPERSEDE_LABELS.has(r.pair.label));
  const falsePositives = results.filter((r) => r.superseded && !SUPERSEDE_LABELS.has(r.pair.label));
  const positives = results.filter((r) => SUPERSEDE_LABELS.has(r.pair.label)).length;
  return {
    precision: truePositives.length / Math.max(1, truePositives.length + falsePositives.length),
    recall: truePositives.length / positives,
    falsePositives: falsePositives.map((r) => `${r.pair.older} -> ${r.pair.newer}`),
  };
}

describe("conflict detection on the labelled pairs (test/fixtures/conflict-pairs.jsonl)", () => {
  it("holds at least 60 pairs of every kind", () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(60);
    const labels = new Set(PAIRS.map((pair) => pair.label));
    expect([...labels].sort()).toEqual([
      "contradiction",
      "different_subject",
      "duplicate",
      "unrelated",
      "update",
    ]);
  });

  it("never supersedes an unrelated fact or another person's with the default threshold (test embedder)", async () => {
    const result = await outcomes(true);
    expect(result.falsePositives).toEqual([]);
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
    // Measured 0.737 (packages/api/README.md, "Conflicts"); a drop means scoring changed.
    expect(result.recall).toBeGreaterThanOrEqual(0.7);
  });

  it("never supersedes an unrelated fact without an embedder (Jaccard fallback)", async () => {
    const result = await outcomes(false);
    expect(result.falsePositives).toEqual([]);
    expect(result.recall).toBeGreaterThanOrEqual(0.5);
  });

  it('keeps "Bob lives in Berlin" when "Alice moved to Paris" is stored', async () => {
    const memory = fresh({
      embedder: createTestEmbedder({ dimensions: 256 }),
      settings: { conflict_mode: "combined", conflict_threshold: 0 },
    });
    await memory.store({ key: "bob", content: "Bob lives in Berlin" });
    const alice = await memory.store({ key: "alice", content: "Alice moved to Paris" });
    expect(alice.conflict?.superseded).toEqual([]);
    expect((await memory.get("bob"))!.supersededBy).toBeUndefined();
  });
});
