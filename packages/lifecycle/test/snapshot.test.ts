import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Memory, MemoryEntry } from "@memory/api";
import { afterAll, describe, expect, it } from "vitest";
import {
  hydrateFromSnapshot,
  hydrationMarkerPath,
  shouldAutoHydrate,
  writeSnapshot,
} from "../src/index.js";
import { fresh } from "./fresh-memory.js";

const dir = mkdtempSync(path.join(tmpdir(), "memory-snapshot-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const file = () => path.join(dir, `case-${++counter}`, "MEMORY_SNAPSHOT.md");

async function all(memory: Memory): Promise<MemoryEntry[]> {
  const entries: MemoryEntry[] = [];
  for await (const entry of memory.export({ categories: ["core"] })) entries.push(entry);
  return entries.sort((a, b) =>
    `${a.namespace}\u0000${a.key}` < `${b.namespace}\u0000${b.key}` ? -1 : 1,
  );
}

async function seeded(): Promise<Memory> {
  const memory = fresh();
  await memory.importEntries([
    {
      key: "lang",
      content: "Prefers TypeScript",
      importance: 0.9,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-02T00:00:00.000Z",
    },
    { key: "multi **x**: y", content: " line 1\r\nline 2 --> <!-- \\ \t ", sessionId: "s-->1" },
    { key: "old", content: "Used Java", supersededBy: "lang" },
    { key: "k", content: "other tenant", namespace: "acme:billing " },
    { key: "daily-1", content: "not core", category: "daily" },
  ]);
  return memory;
}

describe("writeSnapshot", () => {
  it("writes the core entries of every namespace atomically and reports entries, path and bytes", async () => {
    const memory = await seeded();
    const target = file();
    const report = await writeSnapshot(memory, target, { generator: "test" });
    expect(report).toMatchObject({ entries: 4, path: target });
    expect(report.namespaces).toEqual(["acme:billing ", "default"]);
    expect(report.bytes).toBe(statSync(target).size);
    // Only the snapshot is left in the directory: the temporary file was renamed.
    expect(readdirSync(path.dirname(target))).toEqual(["MEMORY_SNAPSHOT.md"]);
    const text = readFileSync(target, "utf8");
    expect(text).toContain("- **lang**: Prefers TypeScript <!-- memory ");
    expect(text).not.toContain("not core");
  });

  it("writes only the given namespaces and replaces an older snapshot", async () => {
    const memory = await seeded();
    const target = file();
    await writeSnapshot(memory, target);
    const report = await writeSnapshot(memory, target, { namespaces: ["acme:billing "] });
    expect(report.entries).toBe(1);
    expect(readFileSync(target, "utf8")).not.toContain("Prefers TypeScript");
  });
});

describe("hydrateFromSnapshot", () => {
  it("restores every core entry exactly (ids, timestamps, importance, session, supersededBy)", async () => {
    const source = await seeded();
    const target = file();
    await writeSnapshot(source, target);
    const restored = fresh();
    const report = await hydrateFromSnapshot(restored, target);
    expect(report).toMatchObject({ entries: 4, imported: 4, skipped: 0, problems: [] });
    expect(await all(restored)).toEqual(await all(source));
    expect(statSync(hydrationMarkerPath(target), { throwIfNoEntry: false })).toBeUndefined();
  });

  it("skips stored keys instead of overwriting them, so running it twice duplicates nothing", async () => {
    const source = await seeded();
    const target = file();
    await writeSnapshot(source, target);
    const restored = fresh();
    await restored.store({ key: "lang", content: "Now prefers Rust" });
    const first = await hydrateFromSnapshot(restored, target);
    expect(first).toMatchObject({ imported: 3, skipped: 1 });
    expect((await restored.get("lang"))?.content).toBe("Now prefers Rust");
    const second = await hydrateFromSnapshot(restored, target);
    expect(second).toMatchObject({ imported: 0, skipped: 4 });
    expect(await all(restored)).toHaveLength(4);
  });

  it("with dryRun writes nothing and says what it would restore", async () => {
    const target = file();
    await writeSnapshot(await seeded(), target);
    const restored = fresh();
    const report = await hydrateFromSnapshot(restored, target, { dryRun: true });
    expect(report).toMatchObject({ imported: 4, dryRun: true });
    expect(await all(restored)).toEqual([]);
  });

  it("reports unreadable lines and refused entries with their line numbers and imports the rest", async () => {
    const target = path.join(dir, "damaged.md");
    writeFileSync(
      target,
      "# MEMORY snapshot\n\n- **ok**: fine\n- **broken: no end\n- ** **: blank key\n- **ok2**: fine too\n",
    );
    const restored = fresh();
    const report = await hydrateFromSnapshot(restored, target);
    expect(report.imported).toBe(2);
    expect(report.problems.map((problem) => problem.line)).toEqual([4, 5]);
    expect(report.problems[1]?.message).toMatch(/INVALID_INPUT: key/);
  });

  it("rejects a missing snapshot with NOT_FOUND", async () => {
    await expect(hydrateFromSnapshot(fresh(), path.join(dir, "nope.md"))).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("shouldAutoHydrate", () => {
  it("is false without a snapshot, true for an empty store, false for a full one", async () => {
    const source = await seeded();
    const target = file();
    expect(await shouldAutoHydrate(fresh(), target)).toBe(false);
    await writeSnapshot(source, target);
    expect(await shouldAutoHydrate(fresh(), target)).toBe(true);
    expect(await shouldAutoHydrate(source, target)).toBe(false);
  });

  it("does not bring back a few entries forgotten on purpose, but restores a store that lost most", async () => {
    const memory = fresh();
    await memory.importEntries(
      Array.from({ length: 10 }, (_, index) => ({ key: `k${index}`, content: `fact ${index}` })),
    );
    const target = file();
    await writeSnapshot(memory, target);
    await memory.forget("k0");
    expect(await shouldAutoHydrate(memory, target)).toBe(false);
    for (let index = 1; index <= 5; index++) await memory.forget(`k${index}`);
    expect(await shouldAutoHydrate(memory, target)).toBe(true);
  });

  it("is true while the marker of an interrupted hydration is there", async () => {
    const source = await seeded();
    const target = file();
    await writeSnapshot(source, target);
    writeFileSync(hydrationMarkerPath(target), "interrupted\n");
    expect(await shouldAutoHydrate(source, target)).toBe(true);
    await hydrateFromSnapshot(source, target);
    expect(await shouldAutoHydrate(source, target)).toBe(false);
  });
});
