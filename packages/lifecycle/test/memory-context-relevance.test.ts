import { afterEach, describe, expect, it, vi } from "vitest";
import { buildMemoryContext } from "../src/index.js";
import { fresh } from "./fresh-memory.js";
import { verdict } from "./support/context-verdict.js";

const DAY = 24 * 60 * 60 * 1000;

describe("buildMemoryContext: which relevant entries fit", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps a months-old relevant entry over this week's weaker matches (age orders, it does not choose)", async () => {
    // Only `Date` is faked: the store stamps entries with it and decay reads it.
    vi.useFakeTimers({ toFake: ["Date"] });
    let now = Date.parse("2026-01-10T12:00:00Z");
    vi.setSystemTime(now);
    const memory = fresh();
    await memory.store({
      key: "trip",
      content: "User: We camped at Lake Tahoe with the kids and saw a bear near the tent",
      category: "conversation",
    });
    now += 90 * DAY;
    vi.setSystemTime(now);
    for (let i = 0; i < 4; i++) {
      await memory.store({
        key: `small-talk-${i}`,
        content: `User: The kids loved the new park near school, round ${i}`,
        category: "conversation",
      });
    }
    const context = await buildMemoryContext(
      memory,
      "Where did we camp and see a bear with the kids?",
      {
        limit: 2,
        explain: "full",
      },
    );
    expect(context.entries.map((entry) => entry.key)).toContain("trip");
    // the recent entries were ranked first by recall (decay), and still lost the slot
    const recalled = context.trace!.recalls[0]!.trace.results.map((entry) => entry.key);
    expect(recalled.indexOf("trip")).toBeGreaterThan(0);
  });
});

describe("buildMemoryContext: a question about someone the store knows", () => {
  async function store() {
    const memory = fresh();
    await memory.store({
      key: "puppy",
      content: "Maria: Guess what, I adopted a puppy two weeks ago, her name is Coco.",
      category: "conversation",
    });
    await memory.store({
      key: "gym",
      content: "Maria: I joined a gym last week and I love the morning classes.",
      category: "conversation",
    });
    return memory;
  }

  it("shows the best matches under minScore down to namedMinScore, and says which threshold applied", async () => {
    const memory = await store();
    const question = "What exciting news did Maria share about a puppy?";
    const named = await buildMemoryContext(memory, question, {
      explain: "full",
      minScore: 0.9,
      namedMinScore: 0.2,
    });
    const strict = await buildMemoryContext(memory, question, {
      explain: "full",
      minScore: 0.9,
      namedMinScore: 0.9,
    });
    const relevance = verdict(strict, "puppy").explain.fused ?? 0;
    // the entry sits between the two thresholds: in with the named one, out without it
    expect(relevance).toBeGreaterThanOrEqual(0.2);
    expect(relevance).toBeLessThan(0.9);
    expect(named.entries.map((entry) => entry.key)).toContain("puppy");
    expect(verdict(named, "puppy").detail).toContain("namedMinScore");
    expect(strict.entries.map((entry) => entry.key)).not.toContain("puppy");
    expect(verdict(strict, "puppy")).toMatchObject({ kept: false, reason: "under_threshold" });
  });

  it("defaults namedMinScore to half of minScore", async () => {
    const memory = await store();
    const question = "What exciting news did Maria share about a puppy?";
    const strict = await buildMemoryContext(memory, question, { explain: "full", minScore: 0.6 });
    expect(strict.trace?.settings).toMatchObject({ minScore: 0.6, namedMinScore: 0.3 });
    const plain = await buildMemoryContext(memory, question, { explain: "full" });
    expect(plain.trace?.settings).toMatchObject({ minScore: 0.4, namedMinScore: 0.2 });
  });

  it("keeps minScore for a question that names no one", async () => {
    const memory = await store();
    const context = await buildMemoryContext(memory, "What exciting news about a puppy?", {
      explain: "full",
      minScore: 0.9,
    });
    expect(context.entries).toEqual([]);
    expect(verdict(context, "puppy").detail).toContain("minScore 0.9");
  });

  it("gives nothing to a question about a name the store never heard of", async () => {
    const memory = await store();
    const context = await buildMemoryContext(
      memory,
      "What exciting news did Jonas share about a puppy?",
    );
    expect(context.entries).toEqual([]);
  });
});

describe("buildMemoryContext: neighbours raised by their session", () => {
  async function conversation(reply: string) {
    const memory = fresh();
    await memory.store({
      key: "asked",
      content: "User: How did your kids react at the military memorial?",
      category: "conversation",
      sessionId: "s1",
    });
    await memory.store({
      key: "answer",
      content: reply,
      category: "conversation",
      sessionId: "s1",
    });
    return memory;
  }

  it("lets in a neighbour that says something, and leaves it out with includeNeighbours: false", async () => {
    const reply = "User: They stood silent, awestruck and humbled by the long rows of names";
    const message = "How did the kids react at the military memorial?";
    const memory = await conversation(reply);
    const context = await buildMemoryContext(memory, message, { explain: "full", minScore: 0.1 });
    expect(verdict(context, "answer").explain.keywordRelevance ?? 0).toBe(0);
    expect(context.entries.map((entry) => entry.key)).toContain("answer");
    const without = await buildMemoryContext(memory, message, {
      explain: "full",
      minScore: 0.1,
      includeNeighbours: false,
    });
    expect(verdict(without, "answer")).toMatchObject({ kept: false, reason: "context_only" });
  });

  it("never lets in a contentless neighbour", async () => {
    const memory = await conversation("User: I don't know yet.");
    const context = await buildMemoryContext(
      memory,
      "How did the kids react at the military memorial?",
      {
        explain: "full",
        minScore: 0.1,
      },
    );
    expect(context.entries.map((entry) => entry.key)).not.toContain("answer");
  });
});

describe("buildMemoryContext: one place for one statement", () => {
  it("shows a promoted fact and the turn it came from once: the turn, which says more", async () => {
    const memory = fresh();
    await memory.store({
      key: "fact",
      content: "My sister Clara works as a nurse at the clinic",
      category: "core",
    });
    await memory.store({
      key: "turn",
      content: "User: My sister Clara lives in Hamburg and works as a nurse at the clinic",
      category: "conversation",
    });
    await memory.store({
      key: "other",
      content: "User: Clara bought a red bike for the clinic commute",
      category: "conversation",
    });
    // (a statement: a question answered by the fact would keep the fact first, as its answer)
    const context = await buildMemoryContext(memory, "Clara the nurse at the clinic", {
      explain: "full",
    });
    const keys = context.entries.map((entry) => entry.key);
    expect(keys).toContain("turn");
    expect(keys).not.toContain("fact");
    expect(verdict(context, "fact")).toMatchObject({ kept: false, reason: "duplicate" });
    expect(verdict(context, "fact").detail).toContain('"turn"');
  });
});

describe("buildMemoryContext: both sides of a contradiction (conflict_policy = link)", () => {
  it("puts the newer statement first and says what it contradicts", async () => {
    const memory = fresh({ settings: { conflict_policy: "link" } });
    await memory.store({ key: "home-1", content: "The user lives in Berlin", category: "core" });
    await memory.store({ key: "home-2", content: "The user lives in Munich", category: "core" });
    const context = await buildMemoryContext(memory, "the user lives in Berlin or Munich");
    expect(context.entries.map((entry) => entry.key)).toEqual(["home-2", "home-1"]);
    const lines = context.text.split("\n");
    expect(lines[1]).toMatch(/home-2 \(contradicts "home-1"\): The user lives in Munich$/);
    expect(lines[2]).toMatch(/home-1: The user lives in Berlin$/);
  });
});
