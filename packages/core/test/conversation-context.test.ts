import type { MemoryEntry } from "@memory/api";
import { describe, expect, it } from "vitest";
import { Adjacency, contextLifts } from "../src/recall/conversation-context.js";

const WEIGHTS = { neighborWeight: 0.2, sessionWeight: 0.5 };

function candidate(id: string, relevance: number, sessionId?: string, namespace = "default") {
  const entry: MemoryEntry = {
    id,
    key: id,
    content: id,
    category: "core",
    namespace,
    createdAt: "2024-01-01T00:00:00.000Z",
    updatedAt: "2024-01-01T00:00:00.000Z",
    ...(sessionId === undefined ? {} : { sessionId }),
  };
  return { entry, relevance };
}

describe("conversational context", () => {
  it("lifts by how much the best neighbour and the session's best other match beat the entry", () => {
    const list = [candidate("a", 0.8, "s"), candidate("b", 0, "s"), candidate("c", 0.4, "s")];
    const adjacency = new Adjacency();
    adjacency.add("a", "b");
    adjacency.add("b", "c");
    const lifts = contextLifts(list, adjacency, WEIGHTS);
    // b: neighbours a (0.8) and c (0.4); best other in session a.
    expect(lifts.get("b")).toBeCloseTo(1 * Math.min(1, 0.2 * 0.8 + 0.5 * 0.8), 10);
    // a: nothing around it is more relevant than itself.
    expect(lifts.has("a")).toBe(false);
    // c: neighbour b (0) counts nothing; the best other, a, counts by how much it beats c.
    expect(lifts.get("c")).toBeCloseTo(0.6 * (0.5 * (0.8 - 0.4)), 10);
  });

  it("gives nothing to entries alone in their session, without one, or among equals", () => {
    const list = [
      candidate("a", 0.9, "s1"),
      candidate("b", 0.9),
      candidate("c", 0.5, "s2"),
      candidate("d", 0.3, "s3"),
      candidate("e", 0.3, "s3"),
    ];
    const adjacency = new Adjacency();
    adjacency.add("d", "e");
    expect(contextLifts(list, adjacency, WEIGHTS).size).toBe(0);
  });

  it("keeps sessions of different namespaces apart", () => {
    const list = [candidate("a", 0.9, "s", "one"), candidate("b", 0.1, "s", "two")];
    const adjacency = new Adjacency();
    adjacency.add("a", "b");
    expect(contextLifts(list, adjacency, WEIGHTS).size).toBe(0);
  });

  it("never lifts past 1", () => {
    const list = [candidate("a", 1, "s"), candidate("b", 0.95, "s")];
    const adjacency = new Adjacency();
    adjacency.add("a", "b");
    const heavy = { neighborWeight: 1, sessionWeight: 1 };
    const lifts = contextLifts(list, adjacency, heavy);
    expect(0.95 + lifts.get("b")!).toBeLessThanOrEqual(1);
    expect(lifts.has("a")).toBe(false);
  });
});
