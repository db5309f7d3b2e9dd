import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const WRITER = fileURLToPath(new URL("./fixtures/writer.ts", import.meta.url));

function run(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

describe("several processes on one file", () => {
  it("keeps all 10,000 writes of 4 processes x 2,500 stores, with no error surfaced", async () => {
    const path = tempDbPath();
    // Create the schema first so the children race on writes, not on the first migration.
    const setup = createSqliteMemory({ path });
    await setup.init();
    const results = await Promise.all(
      ["p0", "p1", "p2", "p3"].map((prefix) => run(["store", path, prefix, "2500"]).done),
    );
    for (const result of results) {
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("done\n");
    }
    expect(await setup.count({ categories: ["daily"] })).toBe(10_000);
    for (const prefix of ["p0", "p1", "p2", "p3"]) {
      expect((await setup.get(`${prefix}-2499`))!.content).toBe(`entry 2499 written by ${prefix}`);
    }
    // The FTS index saw every write too.
    expect((await setup.recall("p3", { mode: "bm25", limit: 10_000 })).length).toBe(2500);
    await setup.close();
  }, 120_000);

  it("counts every recall and feedback of 4 processes x 40 rounds on one entry: no update is lost", async () => {
    const path = tempDbPath();
    const setup = createSqliteMemory({ path });
    await setup.store({ key: "shared", content: "The shared note every process recalls" });
    const results = await Promise.all(
      ["p0", "p1", "p2", "p3"].map(() => run(["feedback", path, "40"]).done),
    );
    for (const result of results) {
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
    }
    const { entries } = await setup.usage({ keys: ["shared"] });
    expect(entries[0]!.stats).toMatchObject({ surfaced: 160, used: 160 });
    expect((await setup.healthCheck()).details).toMatchObject({ usageEvents: 320 });
    await setup.close();
  }, 120_000);

  it("survives SIGKILL in the middle of a bulk import with every acknowledged write present", async () => {
    const path = tempDbPath();
    const { child, done } = run(["import", path, "200", "500"]);
    const acked = await new Promise<number>((resolve, reject) => {
      let seen = "";
      child.stdout!.on("data", (chunk) => {
        seen += chunk;
        const acks = seen.split("\n").filter((line) => line.startsWith("ack "));
        if (acks.length >= 5) {
          child.kill("SIGKILL");
          resolve(acks.length);
        }
      });
      child.on("close", () => reject(new Error(`child ended before 5 acks: ${seen}`)));
    });
    const result = await done;
    expect(result.code).toBe(null);
    // Everything printed before the kill, including acks that arrived after the decision.
    const acknowledged = result.stdout.split("\n").filter((line) => line.startsWith("ack ")).length;
    expect(acknowledged).toBeGreaterThanOrEqual(acked);

    const raw = new Database(path);
    expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
    raw.close();
    const memory = createSqliteMemory({ path });
    for (let batch = 0; batch < acknowledged; batch++) {
      expect(await memory.get(`bulk-${batch}-0`)).not.toBeNull();
      expect(await memory.get(`bulk-${batch}-499`)).not.toBeNull();
    }
    const total = await memory.count();
    expect(total).toBeGreaterThanOrEqual(acknowledged * 500);
    expect(total % 500).toBe(0); // a batch is one transaction: all or nothing
    expect((await memory.recall("bulk", { mode: "bm25", limit: 10 })).length).toBe(10);
    await memory.close();
  }, 120_000);

  it("shows an open reader every committed batch of a running import, and nothing to repair after SIGKILL", async () => {
    const path = tempDbPath();
    // The reader opens the empty store first, as a server sharing the file would.
    const reader = createSqliteMemory({ path });
    await reader.init();
    const { child, done } = run(["stream", path, "200000"]);
    const ackedWhileRunning = await new Promise<number>((resolve, reject) => {
      let seen = "";
      const onData = (chunk: Buffer) => {
        seen += chunk;
        const acks = seen.split("\n").filter((line) => line.startsWith("ack "));
        if (acks.length >= 2) {
          child.stdout!.off("data", onData);
          resolve(Number(acks[1]!.slice(4)));
        }
      };
      child.stdout!.on("data", onData);
      child.on("close", () => reject(new Error(`child ended before 2 acks: ${seen}`)));
    });
    // While the import runs, every committed entry is searchable from the other connection.
    expect(await reader.recall("zebras", { mode: "bm25", limit: 5 })).toHaveLength(5);
    const last = `stream-${ackedWhileRunning - 1}`;
    expect((await reader.recall(last, { mode: "bm25", limit: 1 }))[0]?.key).toBe(last);
    child.kill("SIGKILL");
    await done;

    // The same reader, never reopened: the killed import left the index whole.
    const total = await reader.count();
    expect(total).toBeGreaterThanOrEqual(ackedWhileRunning);
    expect(total % 5000).toBe(0); // a batch is one transaction: all or nothing
    const lastCommitted = `stream-${total - 1}`;
    expect((await reader.recall(lastCommitted, { mode: "bm25", limit: 1 }))[0]?.key).toBe(
      lastCommitted,
    );
    // A write after the kill is indexed at once.
    await reader.store({ key: "after-kill", content: "a quokka arrived after the import died" });
    expect((await reader.recall("quokka", { mode: "bm25" })).map((entry) => entry.key)).toEqual([
      "after-kill",
    ]);
    await reader.close();

    const check = new Database(path);
    // FTS5's own consistency check between the index and the memories table.
    check.exec("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')");
    expect(check.prepare("SELECT documents FROM namespace_stats").all()).toEqual([
      { documents: total + 1 },
    ]);
    check.close();
  }, 120_000);
});
