import { describe, expect, it } from "vitest";
import { buildMemoryContext } from "../src/index.js";
import { realBackends } from "./real-backends.js";
import { verdict } from "./support/context-verdict.js";

const REPLY_KEY = "daily_2026-11-27T10:00:00.000Z_0b7c";

describe.each(realBackends())("the memory context's trace on %s", (_name, open) => {
  it("names each drop: a question turn, a contentless reply, the message itself", async () => {
    const memory = open();
    const message = "The deploy key in the vault must rotate monthly";
    await memory.store({
      key: "deploy-key",
      content: "The deploy key is kept in the vault under ops/deploy",
      category: "core",
    });
    await memory.store({
      key: "turn-question",
      content: "User: Where is the deploy key kept in the vault?",
      category: "conversation",
    });
    await memory.store({
      key: REPLY_KEY,
      content: "Sure, the deploy key, noted!",
      category: "daily",
    });
    await memory.store({ key: "turn-echo", content: `User: ${message}`, category: "conversation" });

    // Every entry passes the threshold: each is dropped for what it is, not for its score.
    const plain = await buildMemoryContext(memory, message, { minScore: 0 });
    const traced = await buildMemoryContext(memory, message, { minScore: 0, explain: "full" });
    // The same block: the trace only adds the account.
    expect(traced.text).toBe(plain.text);
    expect(traced.entries.map((entry) => entry.key)).toEqual(plain.entries.map((e) => e.key));
    expect(plain.trace).toBeUndefined();

    expect(verdict(traced, "deploy-key")).toMatchObject({ kept: true });
    expect(verdict(traced, "turn-question")).toMatchObject({ kept: false, reason: "question" });
    expect(verdict(traced, REPLY_KEY)).toMatchObject({ kept: false, reason: "contentless" });
    expect(verdict(traced, "turn-echo")).toMatchObject({ kept: false, reason: "current_turn" });
    const trace = traced.trace!;
    expect(trace.message).toBe(message);
    expect(trace.settings).toMatchObject({ limit: 5, minScore: 0, maxChars: 2000 });
    expect(trace.recalls.map((recall) => recall.purpose)).toEqual(["message"]);
    expect(trace.recalls[0]!.trace.results.map((entry) => entry.key).sort()).toEqual(
      ["deploy-key", REPLY_KEY, "turn-echo", "turn-question"].sort(),
    );
    // Kept entries first, in block order.
    expect(trace.candidates.filter((c) => c.kept).map((c) => c.key)).toEqual(
      traced.entries.map((entry) => entry.key),
    );
  });

  it("names the threshold, the limit and the character budget", async () => {
    const memory = open();
    for (const [key, content] of [
      ["rotate-1", "Rotate the staging deploy key every month, the ops team asked twice already"],
      ["rotate-2", "Rotate the production deploy key every month as well, same ops runbook"],
      [
        "rotate-3",
        "The deploy key rotation runbook of the ops team lives in the wiki under security",
      ],
    ])
      await memory.store({ key: key!, content: content!, category: "core" });
    const strict = await buildMemoryContext(memory, "rotate deploy key", {
      explain: "full",
      minScore: 0.99,
    });
    expect(strict.text).toBe("");
    const under = verdict(strict, "rotate-1");
    expect(under).toMatchObject({ kept: false, reason: "under_threshold" });
    expect(under.detail).toContain("< the context's minScore 0.99");
    // Nothing passed: the engine's own recall at the threshold ran too, and was traced.
    expect(strict.trace!.recalls.map((recall) => recall.purpose)).toEqual(["message", "fallback"]);

    const limited = await buildMemoryContext(memory, "rotate deploy key", {
      explain: "full",
      limit: 1,
    });
    expect(limited.entries).toHaveLength(1);
    const over = limited.trace!.candidates.filter((c) => c.reason === "over_limit");
    expect(over).toHaveLength(2);
    expect(over[0]!.detail).toContain("the limit of 1");

    const small = await buildMemoryContext(memory, "rotate deploy key", {
      explain: "full",
      maxChars: 200,
    });
    expect(small.truncated).toBe(true);
    const budget = small.trace!.candidates.filter((c) => c.reason === "over_budget");
    expect(budget.length).toBe(3 - small.entries.length);
    expect(budget[0]!.detail).toContain("maxChars 200");
  });

  it("names an entry raised only by its session as context_only", async () => {
    const memory = open();
    await memory.store({
      key: "painted",
      content: "User: I painted a lake sunrise with oil colours last year",
      category: "conversation",
      sessionId: "s1",
    });
    await memory.store({
      key: "hangs",
      content: "User: It hangs in the hallway now",
      category: "conversation",
      sessionId: "s1",
    });
    const context = await buildMemoryContext(memory, "lake sunrise painting in oil colours", {
      explain: "full",
      minScore: 0.1,
    });
    expect(context.entries.map((entry) => entry.key)).toEqual(["painted"]);
    const lifted = verdict(context, "hangs");
    expect(lifted).toMatchObject({ kept: false, reason: "context_only" });
    expect(lifted.explain.context).toBeGreaterThan(0.1);
    expect(lifted.detail).toContain("its session added");
  });
});
