import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryError } from "@memory/api";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteMemory, type SqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const text = (i: number, size = 2000) => `entry ${i} about lighthouses ${"x".repeat(size)}`;

async function storeFails(memory: SqliteMemory, key: string, content: string) {
  try {
    await memory.store({ key, content });
  } catch (error) {
    return error;
  }
  throw new Error("the store succeeded");
}

/** Fills the file system holding `directory` until it refuses a byte. */
function fillDisk(directory: string): string {
  const filler = join(directory, "filler");
  const fd = openSync(filler, "w");
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
  try {
    for (;;) writeSync(fd, chunk, 0, 1);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
  closeSync(fd);
  return filler;
}

async function expectReadsWork(memory: SqliteMemory) {
  expect((await memory.get("kept-0"))?.content).toBe(text(0));
  expect((await memory.recall("lighthouses", { mode: "bm25", limit: 3 })).length).toBe(3);
}

describe("a database that hits its size limit (max_page_count: SQLite's own SQLITE_FULL)", () => {
  it("refuses writes with STORE_NOT_WRITABLE, keeps reads working, and recovers", async () => {
    const path = tempDbPath();
    const setup = createSqliteMemory({ path });
    for (let i = 0; i < 5; i++) await setup.store({ key: `kept-${i}`, content: text(i) });
    await setup.close();

    const db = new Database(path);
    const pages = db.pragma("page_count", { simple: true }) as number;
    // The limit is the current size: the database cannot take one more page.
    db.pragma(`max_page_count = ${pages}`);
    const memory = createSqliteMemory({ database: db });
    const error = await storeFails(memory, "too-big", text(99, 200_000));
    expect(MemoryError.hasCode(error, "STORE_NOT_WRITABLE")).toBe(true);
    expect((error as MemoryError).details).toMatchObject({ reason: "full" });
    expect((error as Error).message).toMatch(/full.*reads keep working/);
    await expectReadsWork(memory);
    expect(await memory.get("too-big")).toBeNull();

    const report = await memory.healthCheck();
    expect(report.ok).toBe(false);
    expect(report.storage).toMatchObject({ writable: false });

    db.pragma(`max_page_count = ${pages + 10_000}`);
    await memory.store({ key: "fits-now", content: text(100) });
    expect((await memory.healthCheck()).storage).toEqual({ writable: true });
    await memory.close();
    db.close();
  });

  it("stops an import with a typed error that counts the committed entries, never as rejected lines", async () => {
    const path = tempDbPath();
    const setup = createSqliteMemory({ path });
    await setup.store({ key: "kept-0", content: text(0) });
    await setup.close();

    const db = new Database(path);
    const pages = db.pragma("page_count", { simple: true }) as number;
    // Room for the first batch of 5,000 small entries (with their indexes), not for the second.
    db.pragma(`max_page_count = ${pages + 750}`);
    const memory = createSqliteMemory({ database: db });
    const entries = Array.from({ length: 12_000 }, (_, i) => ({
      key: `bulk-${i}`,
      content: `bulk entry ${i} with a few words to index`,
    }));
    let failure: unknown;
    try {
      await memory.importEntries(entries);
    } catch (error) {
      failure = error;
    }
    expect(MemoryError.hasCode(failure, "STORE_NOT_WRITABLE")).toBe(true);
    const { imported, rejected } = (failure as MemoryError).details as {
      imported: number;
      rejected: number;
    };
    expect(rejected).toBe(0);
    expect(imported).toBe(5000);
    expect((failure as Error).message).toMatch(/stopped after 5000 entries were committed/);
    expect(await memory.count()).toBe(1 + imported);
    expect((await memory.recall("bulk-4999", { mode: "bm25", limit: 1 }))[0]?.key).toBe(
      "bulk-4999",
    );
    await memory.close();
    db.close();
  });
});

describe("a read-only database", () => {
  it("answers reads, refuses writes with STORE_NOT_WRITABLE (read-only) and says so in healthCheck", async () => {
    const path = tempDbPath();
    const setup = createSqliteMemory({ path });
    for (let i = 0; i < 5; i++) await setup.store({ key: `kept-${i}`, content: text(i) });
    await setup.close();

    const db = new Database(path, { readonly: true });
    const memory = createSqliteMemory({ database: db });
    await expectReadsWork(memory);
    const error = await storeFails(memory, "new", "a new entry");
    expect(MemoryError.hasCode(error, "STORE_NOT_WRITABLE")).toBe(true);
    expect((error as MemoryError).details).toMatchObject({ reason: "read-only" });
    expect((error as Error).message).toMatch(/read-only .*writable/);
    const report = await memory.healthCheck();
    expect(report.ok).toBe(false);
    expect(report.storage?.writable).toBe(false);
    expect(report.storage?.reason).toMatch(/read-only/);
    await memory.close();
    db.close();
  });
});

// Mounting needs root (CI runs as root); elsewhere this group is reported as skipped, by name.
const isRoot = process.getuid?.() === 0;
describe.runIf(isRoot)("a full disk (a real 8 MiB tmpfs, needs root)", () => {
  const mountPoint = mkdtempSync(join(tmpdir(), "memory-full-disk-"));
  let mounted = false;
  afterAll(() => {
    if (mounted) execFileSync("umount", [mountPoint]);
    rmdirSync(mountPoint);
  });

  it("refuses writes with STORE_NOT_WRITABLE (full), keeps reads working, and recovers when space is freed", async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mountPoint]);
    mounted = true;
    const path = join(mountPoint, "brain.db");
    const memory = createSqliteMemory({ path });
    for (let i = 0; i < 5; i++) await memory.store({ key: `kept-${i}`, content: text(i) });
    expect((await memory.healthCheck()).storage).toEqual({ writable: true });

    const filler = fillDisk(mountPoint);
    const error = await storeFails(memory, "too-big", text(99, 1_000_000));
    expect(MemoryError.hasCode(error, "STORE_NOT_WRITABLE")).toBe(true);
    expect((error as MemoryError).details).toMatchObject({ reason: "full" });
    await expectReadsWork(memory);
    const report = await memory.healthCheck();
    expect(report.ok).toBe(false);
    expect(report.storage?.reason).toMatch(/bytes free/);

    rmSync(filler);
    await memory.store({ key: "after", content: text(101) });
    expect((await memory.get("after"))?.content).toBe(text(101));
    expect((await memory.healthCheck()).ok).toBe(true);
    await memory.close();
  });
});
