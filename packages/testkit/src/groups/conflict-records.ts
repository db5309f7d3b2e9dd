import {
  CONFLICT_RECORD_CANDIDATES,
  type Memory,
  type MemoryEntry,
  type RetrievalSettings,
} from "@memory/api";
import { expect, it } from "vitest";

/** Opens a store with conflict detection on (the conflicts group's `open`). */
type Open = (settings?: Partial<RetrievalSettings>, embedder?: boolean) => Promise<Memory>;

async function exported(memory: Memory): Promise<MemoryEntry[]> {
  const entries: MemoryEntry[] = [];
  for await (const entry of memory.export({ namespace: "default" })) entries.push(entry);
  return entries;
}

/**
 * The decision records kept with the entries (docs/history.md): part of the conflicts group, so
 * every backend that runs conflict detection also keeps its records, through every read path.
 */
export function conflictRecordTests(open: Open): void {
  it("keeps the decision with both entries: the new one's conflictRecord, the superseded one's supersessionRecord", async () => {
    const memory = await open();
    await memory.store({ key: "diet-1", content: "The user is vegetarian" });
    const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
    expect(newer.conflictRecord).toMatchObject({
      decidedAt: newer.updatedAt,
      mode: "rules",
      policy: "supersede",
      superseded: ["diet-1"],
      reading: { subject: "@user", attribute: "diet", negated: true },
    });
    expect(newer.conflictRecord!.candidates[0]).toMatchObject({
      key: "diet-1",
      superseded: true,
      rule: "negated",
      decidedBy: "rules",
      reading: { subject: "@user", attribute: "diet", negated: false },
    });
    expect(newer.conflictRecord!.candidates[0]!.reason).toMatch(/negated/);
    const old = await memory.get("diet-1");
    const kept = await memory.get("diet-2");
    expect(kept!.conflictRecord).toEqual(newer.conflictRecord);
    expect(old!.supersessionRecord).toEqual({
      by: "diet-2",
      at: newer.updatedAt,
      decidedBy: "rules",
      rule: "negated",
      reason: newer.conflictRecord!.candidates[0]!.reason,
    });
    // list and recall read the same records.
    const listed = await memory.list({ includeSuperseded: true });
    expect(listed.find((entry) => entry.key === "diet-1")!.supersessionRecord).toEqual(
      old!.supersessionRecord,
    );
    const recalled = await memory.recall("vegetarian", { minScore: 0, includeSuperseded: true });
    const stale = recalled.find((entry) => entry.key === "diet-1")!;
    expect(stale.explain!.superseded).toEqual({
      by: "diet-2",
      decidedBy: "rules",
      rule: "negated",
      reason: old!.supersessionRecord!.reason,
    });
    expect(recalled.find((entry) => entry.key === "diet-2")!.explain!.superseded).toBeUndefined();
  });

  it("carries the records through export and import", async () => {
    const memory = await open();
    await memory.store({ key: "home-1", content: "The user lives in Berlin" });
    await memory.store({ key: "home-2", content: "The user moved to Munich last month" });
    const entries = await exported(memory);
    const target = await open();
    const report = await target.importEntries(entries);
    expect(report.rejected).toEqual([]);
    const old = await target.get("home-1");
    const newer = await target.get("home-2");
    const source = [await memory.get("home-1"), await memory.get("home-2")];
    expect(old!.supersededBy).toBe("home-2");
    expect(old!.supersessionRecord).toEqual(source[0]!.supersessionRecord);
    expect(old!.supersessionRecord).toMatchObject({ by: "home-2", decidedBy: "rules" });
    expect(newer!.conflictRecord).toEqual(source[1]!.conflictRecord);
    expect(newer!.conflictRecord!.superseded).toEqual(["home-1"]);
  });

  it("refuses an imported record that is not one, and keeps what is stored", async () => {
    const memory = await open();
    const report = await memory.importEntries([
      { key: "bad", content: "The user lives in Oslo", conflictRecord: "yes" as never },
    ]);
    expect(report.rejected).toHaveLength(1);
    expect(report.rejected[0]!.message).toMatch(/conflictRecord must be an object/);
    expect(await memory.get("bad")).toBeNull();
  });

  it("removes the supersessionRecord on unsupersede and on a store of the superseded key", async () => {
    const memory = await open();
    await memory.store({ key: "diet-1", content: "The user is vegetarian" });
    await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
    const restored = await memory.unsupersede("diet-1");
    expect(restored.supersessionRecord).toBeUndefined();
    const read = await memory.get("diet-1");
    expect(read!.supersededBy).toBeUndefined();
    expect(read!.supersessionRecord).toBeUndefined();
    // Superseded again, then stored again under its key: current, with no stale record.
    expect(await memory.markSuperseded("diet-1", "diet-2")).toBe(true);
    expect((await memory.get("diet-1"))!.supersessionRecord).toMatchObject({
      by: "diet-2",
      decidedBy: "manual",
    });
    await memory.store({ key: "diet-1", content: "The user eats fish on Fridays" });
    const current = await memory.get("diet-1");
    expect(current!.supersededBy).toBeUndefined();
    expect(current!.supersessionRecord).toBeUndefined();
  });

  it("with conflict_policy = flag, records the flag on the new entry and marks nothing", async () => {
    const memory = await open({ conflictPolicy: "flag" });
    await memory.store({ key: "diet-1", content: "The user is vegetarian" });
    const newer = await memory.store({ key: "diet-2", content: "The user is not vegetarian" });
    expect(newer.conflictRecord).toMatchObject({
      policy: "flag",
      superseded: [],
      flagged: ["diet-1"],
    });
    expect(newer.conflictRecord!.candidates[0]).toMatchObject({ key: "diet-1", flagged: true });
    const old = await memory.get("diet-1");
    expect(old!.supersededBy).toBeUndefined();
    expect(old!.supersessionRecord).toBeUndefined();
  });

  it("says which version a same-key store kept, and why that version is superseded", async () => {
    const memory = await open();
    const first = await memory.store({ key: "city", content: "The user lives in Berlin" });
    expect(first.keptVersion).toBeUndefined();
    const second = await memory.store({ key: "city", content: "The user lives in Munich" });
    expect(second.keptVersion).toBe("city::history:1");
    expect(second.conflictRecord?.decidedAt).toBe(second.updatedAt);
    const [, version] = await memory.history("city");
    expect(version).toMatchObject({
      key: "city::history:1",
      content: "The user lives in Berlin",
      supersededBy: "city",
      supersessionRecord: { by: "city", at: second.updatedAt, decidedBy: "version" },
    });
    // The decision made when that content was stored stays with it.
    expect(version!.conflictRecord).toEqual(first.conflictRecord);
    const again = await memory.store({ key: "city", content: "The user lives in Munich" });
    expect(again.keptVersion).toBeUndefined();
  });

  it("keeps a bounded record: at most the first few candidates, the acting ones first", async () => {
    const memory = await open();
    const people = ["Anna", "Ben", "Carla", "Dev", "Emil", "Farah", "Gus", "Hana"];
    for (const name of people) {
      await memory.store({ key: `home-${name}`, content: `${name} lives in Berlin` });
    }
    await memory.store({ key: "home-user", content: "The user lives in Berlin" });
    const newer = await memory.store({ key: "home-user-2", content: "The user lives in Munich" });
    const record = newer.conflictRecord!;
    expect(newer.conflict!.candidates.length).toBeGreaterThan(CONFLICT_RECORD_CANDIDATES);
    expect(record.candidatesSeen).toBe(newer.conflict!.candidates.length);
    expect(record.candidates).toHaveLength(CONFLICT_RECORD_CANDIDATES);
    expect(record.candidates[0]).toMatchObject({ key: "home-user", superseded: true });
    expect(record.candidates.slice(1).every((candidate) => !candidate.superseded)).toBe(true);
    expect(JSON.stringify(record).length).toBeLessThan(8_000);
  });
}
