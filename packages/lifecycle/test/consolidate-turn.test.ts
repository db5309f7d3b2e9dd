import { createTestEmbedder } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { consolidateTurn, dailyKey } from "../src/index.js";
import { realBackends } from "./real-backends.js";

const NOW = () => new Date("2026-11-24T10:00:00.000Z");

describe.each(realBackends())("consolidateTurn on %s", (_name, open) => {
  it("stores a daily entry for the turn and promotes an important message to core", async () => {
    const memory = open();
    const report = await consolidateTurn(
      memory,
      { userMessage: "I always deploy on Fridays", assistantReply: "Noted.", sessionId: "s1" },
      { now: NOW },
    );
    expect(report.daily?.key).toMatch(/^daily_2026-11-24_[0-9a-f-]{36}$/);
    expect(report.daily).toMatchObject({
      category: "daily",
      content: "User: I always deploy on Fridays\nAssistant: Noted.",
      sessionId: "s1",
    });
    expect(report.importance).toBe(0.8);
    expect(report.promoted).toMatchObject({
      category: "core",
      content: "I always deploy on Fridays",
      importance: 0.8,
    });
    expect(report.superseded).toEqual([]);
    expect(await memory.count({ categories: ["core"] })).toBe(1);
  });

  it("does not promote an ordinary or a too short message", async () => {
    const memory = open();
    const ordinary = await consolidateTurn(memory, { userMessage: "I had ramen for lunch" });
    expect(ordinary).toMatchObject({ notPromoted: "importance", importance: 0.7 });
    expect(ordinary.promoted).toBeUndefined();
    const short = await consolidateTurn(memory, { userMessage: "must, always" });
    expect(short.importance).toBe(0.9);
    expect(short.notPromoted).toBeUndefined();
    const tiny = await consolidateTurn(memory, { userMessage: "never! ok" });
    expect(tiny).toMatchObject({ notPromoted: "too-short" });
    expect(await memory.count({ categories: ["daily"] })).toBe(3);
    expect(await memory.count({ categories: ["core"] })).toBe(1);
  });

  it("skips empty and filtered turns", async () => {
    const memory = open();
    expect(await consolidateTurn(memory, { userMessage: "  " })).toMatchObject({
      skipped: "empty",
    });
    expect(
      await consolidateTurn(memory, { userMessage: "[Memory context]\n- [core] a: b" }),
    ).toMatchObject({ skipped: "filtered" });
    expect(await memory.count()).toBe(0);
  });

  it("supersedes the older core fact after the conflict check (memory's conflict_mode off)", async () => {
    const memory = open({
      embedder: createTestEmbedder({ dimensions: 256 }),
      settings: { conflictMode: "off" },
    });
    const first = await consolidateTurn(memory, { userMessage: "We always deploy on Fridays" });
    const second = await consolidateTurn(memory, { userMessage: "We never deploy on Fridays" });
    expect(second.superseded).toEqual([first.promoted!.key]);
    expect(second.conflict?.mode).toBe("rules");
    expect(second.conflict?.candidates[0]).toMatchObject({ rule: "negated", superseded: true });
    expect((await memory.get(first.promoted!.key))!.supersededBy).toBe(second.promoted!.key);
    const current = await memory.recall("deploy Fridays", { categories: ["core"] });
    expect(current.map((entry) => entry.content)).toEqual(["We never deploy on Fridays"]);
  });

  it("reports the memory's own decision when the memory checks conflicts on store", async () => {
    const memory = open({ settings: { conflictMode: "jaccard" } });
    const first = await consolidateTurn(memory, {
      userMessage: "The team must use tabs for indentation",
    });
    const second = await consolidateTurn(memory, {
      userMessage: "The team must no longer use tabs for indentation",
    });
    // The similarity modes of earlier versions are accepted and mean the rules.
    expect(second.conflict?.mode).toBe("rules");
    expect(second.superseded).toEqual([first.promoted!.key]);
  });

  it("never supersedes another person's fact", async () => {
    const memory = open({ embedder: createTestEmbedder({ dimensions: 256 }) });
    await consolidateTurn(memory, { userMessage: "Bob must always work from Berlin" });
    const alice = await consolidateTurn(memory, {
      userMessage: "Alice must always work from Paris",
    });
    expect(alice.superseded).toEqual([]);
    expect(await memory.count({ categories: ["core"] })).toBe(2);
  });
});

it("daily keys are daily_<UTC date>_<uuid> and unique", () => {
  const a = dailyKey(NOW());
  expect(a).toMatch(/^daily_2026-11-24_[0-9a-f-]{36}$/);
  expect(dailyKey(NOW())).not.toBe(a);
});
