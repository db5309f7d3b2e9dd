import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { MemoryEntry } from "@memory/api";
import { formatSnapshot } from "@memory/core";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, json, requireBuiltCli, Workspace } from "./helpers/run-memory.js";

interface HydrateResult {
  imported: number;
  skipped: number;
  entries: number;
  problems: { line: number; message: string }[];
}

const HOSTILE = [
  { key: "lang", content: "Prefers TypeScript", importance: 0.9 },
  { key: "a**b: c", content: "line 1\r\nline 2\rline 3\n- **fake**: entry\n## namespace: x" },
  { key: " spaced ", content: "  --> <!-- \\ \\n \t trailing  ", sessionId: "s-->1" },
  { key: "记忆 😀", content: "Zürich e\u0301 \u2028 \u0001", namespace: "acme:billing" },
  { key: "k", content: "in a long namespace", namespace: `${"n".repeat(255)}@` },
  { key: "old", content: "Used Java", supersededBy: "lang" },
];

function lines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .sort();
}

/** Polls `condition` every `everyMs` until it holds; gives up after two minutes. */
async function poll(
  condition: () => Promise<boolean> | boolean,
  what: string,
  everyMs = 100,
): Promise<void> {
  const attempts = 120_000 / everyMs;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`gave up waiting: ${what}`);
}

// The CLI does not depend on better-sqlite3 itself; the test borrows @memory/sqlite's copy.
const sqliteDist = path.resolve(import.meta.dirname, "../../../packages/sqlite/dist/index.mjs");
interface SqliteReader {
  prepare(sql: string): { get(): unknown };
  close(): void;
}
function openSqlite(file: string): SqliteReader {
  const Database = createRequire(sqliteDist)("better-sqlite3") as new (
    file: string,
    options: object,
  ) => SqliteReader;
  return new Database(file, { readonly: true, fileMustExist: true });
}

describe("memory snapshot and memory hydrate", () => {
  const ws = new Workspace();
  afterAll(() => ws.remove());
  const snapshotFile = ws.file(".memory/MEMORY_SNAPSHOT.md");
  const dropDatabase = () => {
    for (const suffix of ["", "-wal", "-shm"])
      rmSync(ws.file(`brain.db${suffix}`), { force: true });
  };

  it("snapshot -> delete the database -> hydrate gives the identical export", async () => {
    const input = `${HOSTILE.map((entry) => JSON.stringify(entry)).join("\n")}\n`;
    expect((await ws.run(["import", "--json"], { input })).code).toBe(0);
    const before = await ws.run(["export", "--category", "core"]);
    expect(before.code).toBe(0);

    const written = await ws.run(["snapshot", "--json"]);
    expect(written.code).toBe(0);
    expect(json(written)).toMatchObject({ entries: HOSTILE.length, path: snapshotFile });
    expect(readFileSync(snapshotFile, "utf8")).toContain("- **lang**: Prefers TypeScript <!--");

    dropDatabase();
    const hydrated = await ws.run(["hydrate", "--json"]);
    expect(hydrated.code).toBe(0);
    expect(json<HydrateResult>(hydrated)).toMatchObject({
      imported: HOSTILE.length,
      skipped: 0,
      problems: [],
    });
    const after = await ws.run(["export", "--category", "core"]);
    expect(lines(after.stdout)).toEqual(lines(before.stdout));
  }, 120_000);

  it("running hydrate twice duplicates nothing", async () => {
    const again = await ws.run(["hydrate"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^restored 0 entries from .* \(6 already stored\)$/m);
    const exported = await ws.run(["export"]);
    expect(lines(exported.stdout)).toHaveLength(HOSTILE.length);
  }, 60_000);

  it("--dry-run reports what it would restore and writes nothing", async () => {
    dropDatabase();
    const dry = await ws.run(["hydrate", "--dry-run", "--json"]);
    expect(json<HydrateResult>(dry)).toMatchObject({ imported: HOSTILE.length, dryRun: true });
    // count would auto-hydrate on open; a config with auto_hydrate = false only looks.
    const look = ws.writeConfig(
      "look.toml",
      '[memory]\nembedding_provider = "noop"\nauto_hydrate = false\n\n[sqlite]\npath = "brain.db"\n',
    );
    const counted = await ws.run(["--config", look, "count", "--json"]);
    expect(json<{ count: number }>(counted).count).toBe(0);
  }, 60_000);

  it("restores a missing database on open (auto_hydrate) and says so in one line", async () => {
    dropDatabase();
    const counted = await ws.run(["count", "--json"]);
    expect(counted.code).toBe(0);
    // count: live entries of "default" (lang, a**b, spaced; "old" is superseded).
    expect(json<{ count: number }>(counted).count).toBe(3);
    expect(counted.stderr).toContain(
      `auto_hydrate: restored ${HOSTILE.length} entries from ${snapshotFile}`,
    );
    const exported = await ws.run(["export"]);
    expect(lines(exported.stdout)).toHaveLength(HOSTILE.length);
    // Once restored, the next open leaves the store alone.
    const next = await ws.run(["count"]);
    expect(next.stderr).not.toContain("auto_hydrate");
  }, 60_000);

  it("reports a missing snapshot with exit code 3", async () => {
    const missing = await ws.run(["hydrate", "--path", ws.file("nope.md")]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/memory snapshot/);
  }, 60_000);
});

describe("memory hydrate, killed with SIGKILL", () => {
  const ws = new Workspace();
  afterAll(() => ws.remove());
  const TOTAL = 20_000;

  it("a second run (auto_hydrate on open, then hydrate) ends with exactly the snapshot's entries", async () => {
    requireBuiltCli();
    const entries: MemoryEntry[] = Array.from({ length: TOTAL }, (_, index) => ({
      id: randomUUID(),
      key: `fact-${index}`,
      content: `fact number ${index} about kayaks --> <!-- \n second line`,
      category: "core",
      namespace: "default",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: new Date(Date.UTC(2026, 0, 1) + index).toISOString(),
      importance: 0.5,
    }));
    mkdirSync(ws.file(".memory"), { recursive: true });
    const snapshot = ws.file(".memory/MEMORY_SNAPSHOT.md");
    writeFileSync(snapshot, formatSnapshot(entries));
    const marker = `${snapshot}.hydrating`;
    const database = ws.file("brain.db");
    // Rows committed so far, read directly (a CLI process per poll would be too slow to catch
    // the import between two batches); -1 while the child has not created the table yet.
    const committed = () => {
      if (!existsSync(database)) return -1;
      const reader = openSqlite(database);
      try {
        return (reader.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n;
      } catch {
        return -1;
      } finally {
        reader.close();
      }
    };

    // Kill the child once it has started importing (the marker is written and a batch is
    // committed). On a fast machine it may finish first: then start over, so the interrupted
    // path is checked on every run, never skipped.
    let killedAt = TOTAL;
    for (let attempt = 1; killedAt >= TOTAL; attempt++) {
      if (attempt > 5) throw new Error("hydrate finished before it could be killed, 5 times");
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
      rmSync(marker, { force: true });
      const child = spawn(process.execPath, [BIN, "hydrate", "--json"], {
        cwd: ws.dir,
        env: cleanEnv(ws.dir),
        stdio: ["ignore", "ignore", "ignore"],
      });
      let finished = false;
      const exited = new Promise<void>((resolve) =>
        child.on("exit", () => {
          finished = true;
          resolve();
        }),
      );
      await poll(() => finished || (existsSync(marker) && committed() > 0), "import start", 5);
      child.kill("SIGKILL");
      await exited;
      killedAt = committed();
    }
    expect(killedAt).toBeGreaterThan(0);
    expect(existsSync(marker)).toBe(true);

    // Opening again finishes the job (the marker says a hydration was interrupted).
    const reopened = await ws.run(["count", "--json"]);
    expect(reopened.code).toBe(0);
    expect(json<{ count: number }>(reopened).count).toBe(TOTAL);
    expect(existsSync(marker)).toBe(false);
    expect(reopened.stderr).toContain("auto_hydrate: restored");

    const again = await ws.run(["hydrate", "--json"]);
    expect(json<HydrateResult>(again)).toMatchObject({ imported: 0, skipped: TOTAL, problems: [] });

    const exported = await ws.run(["export"]);
    const stored = lines(exported.stdout).map((line) => JSON.parse(line) as MemoryEntry);
    expect(stored).toHaveLength(TOTAL);
    const byKey = new Map(stored.map((entry) => [entry.key, entry]));
    expect(byKey.size).toBe(TOTAL);
    for (const entry of entries) {
      const found = byKey.get(entry.key);
      expect(found?.id).toBe(entry.id);
      expect(found?.content).toBe(entry.content);
      expect(found?.updatedAt).toBe(entry.updatedAt);
    }
  }, 600_000);
});
