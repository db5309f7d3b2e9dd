import { describe, expect, it } from "vitest";
import { HYGIENE_JOB, runHygiene } from "../src/index.js";
import { fresh } from "./fresh-memory.js";
import {
  EXPECTED_REMAINING,
  EXPECTED_ROWS,
  keysOf,
  NOW,
  SETTINGS,
  seedHygieneScenario,
} from "./hygiene-scenario.js";

describe("runHygiene", () => {
  it("prunes old conversation and daily entries down to the floors and reports exact numbers", async () => {
    const memory = fresh();
    await seedHygieneScenario(memory);
    const report = await runHygiene(memory, SETTINGS, { now: NOW });
    expect(report).toEqual({
      at: NOW.toISOString(),
      dryRun: false,
      deleted: 6,
      rows: EXPECTED_ROWS,
    });
    expect(await keysOf(memory, "default")).toEqual(EXPECTED_REMAINING.default);
    expect(await keysOf(memory, "b")).toEqual(EXPECTED_REMAINING.b);
  });

  it("never prunes core (superseded or not) nor custom categories, however old", async () => {
    const memory = fresh();
    await seedHygieneScenario(memory);
    await runHygiene(memory, { ...SETTINGS, conversation_retention_floor: 0 }, { now: NOW });
    const left = await keysOf(memory, "default");
    expect(left).toEqual(expect.arrayContaining(["core1", "core2", "core3", "p1"]));
  });

  it("with a floor of 0 prunes every old entry of the category", async () => {
    const memory = fresh();
    await seedHygieneScenario(memory);
    const report = await runHygiene(
      memory,
      { ...SETTINGS, conversation_retention_floor: 0, daily_retention_floor: 0 },
      { now: NOW },
    );
    expect(report.rows.conversation).toEqual({
      before: 9,
      eligible: 5,
      deleted: 5,
      keptByFloor: 0,
    });
    expect(await keysOf(memory, "b")).toEqual([]);
  });

  it("keeps the newest entries when the floor is above the young ones (oldest pruned first)", async () => {
    const memory = fresh();
    await seedHygieneScenario(memory);
    // Floor 5 in default: c5, c4, cs2, cs1 (superseded entries count toward the floor) and c3.
    const report = await runHygiene(
      memory,
      { ...SETTINGS, conversation_retention_floor: 5 },
      { now: NOW },
    );
    expect(report.rows.conversation).toEqual({
      before: 9,
      eligible: 5,
      deleted: 2,
      keptByFloor: 3,
    });
    const left = await keysOf(memory, "default");
    expect(left).toContain("c3");
    expect(left).not.toContain("c1");
    expect(left).not.toContain("c2");
  });

  it("dryRun gives the same report, deletes nothing and records nothing", async () => {
    const memory = fresh();
    await seedHygieneScenario(memory);
    const before = await keysOf(memory, "default");
    const dry = await runHygiene(memory, SETTINGS, { now: NOW, dryRun: true });
    expect(dry).toEqual({ at: NOW.toISOString(), dryRun: true, deleted: 6, rows: EXPECTED_ROWS });
    expect(await keysOf(memory, "default")).toEqual(before);
    expect(await memory.getJobState(HYGIENE_JOB)).toBeNull();
    const real = await runHygiene(memory, SETTINGS, { now: NOW });
    expect({ ...real, dryRun: true }).toEqual(dry);
  });

  it("records lastRunAt and lastReport as job state, and a second run deletes nothing", async () => {
    const memory = fresh();
    await seedHygieneScenario(memory);
    const report = await runHygiene(memory, SETTINGS, { now: NOW });
    expect(await memory.getJobState(HYGIENE_JOB)).toEqual({
      lastRunAt: NOW.toISOString(),
      lastReport: report,
    });
    const again = await runHygiene(memory, SETTINGS, { now: NOW });
    expect(again.deleted).toBe(0);
  });

  it("record: false leaves the job state to the caller", async () => {
    const memory = fresh();
    await runHygiene(memory, SETTINGS, { now: NOW, record: false });
    expect(await memory.getJobState(HYGIENE_JOB)).toBeNull();
  });
});

describe("runHygiene and usage", () => {
  it("never prunes a pinned entry, and prunes usage events past their retention", async () => {
    const memory = fresh();
    await seedHygieneScenario(memory);
    const [oldest] = (await memory.list({ categories: ["conversation"], limit: 1000 })).slice(-1);
    await memory.pin(oldest!.key);
    // One recall's events, recorded now (the memory's wall clock): past a 0-day retention at NOW
    // only if NOW is later, so the retention is given relative to the run's clock.
    const recalled = await memory.recall(oldest!.content, { minScore: 0 });
    expect(recalled.recallId).toBeDefined();
    const later = new Date(Date.now() + 2 * 86_400_000);
    const report = await runHygiene(
      memory,
      { ...SETTINGS, conversation_retention_floor: 0, usage_event_retention_days: 1 },
      { now: later },
    );
    expect(await memory.get(oldest!.key)).not.toBeNull();
    expect(report.usageEventsPruned).toBe(recalled.length);
    await expect(memory.feedback({ recallId: recalled.recallId!, used: [] })).rejects.toThrow(
      /No recall/,
    );
  });
});
