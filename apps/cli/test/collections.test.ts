import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, cleanEnv, json, requireBuiltCli, Workspace } from "./helpers/run-memory.js";

interface SyncReport {
  collection: string;
  notes: number;
  added: number;
  changed: number;
  removed: number;
  problems: { path: string; line?: number; code: string }[];
  error?: { message: string };
}
interface RecallResult {
  results: { key: string; source?: { collection?: string; path: string; title?: string } }[];
}

let ws: Workspace;
let notes: string;
beforeEach(() => {
  ws = new Workspace(
    ["[collections.handbook]", 'path = "handbook"', 'context = "The team handbook"'].join("\n"),
  );
  notes = ws.file("notes");
  mkdirSync(path.join(notes, "decisions"), { recursive: true });
  writeFileSync(
    path.join(notes, "decisions", "0001-postgres.md"),
    "# Use PostgreSQL for the billing service\n\nWe chose PostgreSQL because the billing ledger needs transactions across tables.\n",
  );
  mkdirSync(ws.file("handbook"));
  writeFileSync(
    ws.file("handbook/onboarding.md"),
    "# Onboarding\n\nNew engineers pair with a buddy for their first two weeks on the rota.\n",
  );
});
afterEach(() => ws.remove());

describe("memory collection", () => {
  it("add indexes a folder; recall finds its notes with their source; list shows both kinds", async () => {
    const added = await ws.run(["collection", "add", "notes", notes, "--json"]);
    expect(added.code, added.stderr).toBe(0);
    expect(json<{ sync: SyncReport }>(added).sync).toMatchObject({ notes: 1, added: 1 });
    const recall = await ws.run(["recall", "billing", "ledger", "transactions", "--json"]);
    expect(recall.code, recall.stderr).toBe(0);
    expect(json<RecallResult>(recall).results[0]?.source).toMatchObject({
      collection: "notes",
      path: "decisions/0001-postgres.md",
      title: "Use PostgreSQL for the billing service",
    });
    const human = await ws.run(["recall", "buddy", "rota"]);
    expect(human.stdout).toContain('handbook: onboarding.md:1-3 "Onboarding" (The team handbook)');
    const list = await ws.run(["collection", "list", "--json"]);
    const rows = json<{ collections: { name: string; notes: number; origin: string }[] }>(list);
    expect(rows.collections.map((row) => [row.name, row.notes, row.origin])).toEqual([
      ["handbook", 1, "config"],
      ["notes", 1, "added"],
    ]);
  });

  it("recall re-indexes a changed note first; --no-collections searches memory only", async () => {
    await ws.run(["collection", "add", "notes", notes]);
    writeFileSync(
      path.join(notes, "decisions", "0001-postgres.md"),
      "# Use SQLite for the billing service\n\nWe moved the billing ledger to SQLite files, one per tenant.\n",
    );
    const fresh = await ws.run(["recall", "tenant", "files", "--json"]);
    expect(json<RecallResult>(fresh).results[0]?.source?.title).toBe(
      "Use SQLite for the billing service",
    );
    await ws.run(["store", "--key", "billing-owner", "Dana owns the billing tenant migration"]);
    const only = await ws.run(["recall", "billing", "tenant", "--no-collections", "--json"]);
    expect(json<RecallResult>(only).results.map((r) => r.key)).toEqual(["billing-owner"]);
  });

  it("sync reports removed notes and per-file problems with exit 1; remove keeps the files", async () => {
    await ws.run(["collection", "add", "notes", notes]);
    rmSync(path.join(notes, "decisions", "0001-postgres.md"));
    writeFileSync(
      path.join(notes, "bad.md"),
      "---\ncontent_type: memo\n---\n# Bad\n\nSome text of the bad note.\n",
    );
    const sync = await ws.run(["collection", "sync", "notes", "--json"]);
    expect(sync.code).toBe(1);
    const [report] = json<{ collections: SyncReport[] }>(sync).collections;
    expect(report).toMatchObject({ removed: 1, added: 1 });
    expect(report?.problems).toEqual([
      expect.objectContaining({ path: "bad.md", line: 2, code: "FRONTMATTER" }),
    ]);
    const removed = await ws.run(["collection", "remove", "notes", "--json"]);
    expect(removed.code, removed.stderr).toBe(0);
    const count = await ws.run(["count", "--category", "notes", "--json"]);
    expect(json<{ count: number }>(count).count).toBe(0);
    const refused = await ws.run(["collection", "remove", "handbook"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("memory.toml");
  });

  it("refuses a pattern escaping the folder and a forget of a fragment, saying what to do", async () => {
    const escaping = await ws.run(["collection", "add", "up", notes, "--pattern", "../*.md"]);
    expect(escaping.code).not.toBe(0);
    expect(escaping.stderr).toContain("escapes the collection's folder");
    await ws.run(["collection", "add", "notes", notes]);
    const forget = await ws.run(["forget", "collection:notes:decisions/0001-postgres.md#L1-3"]);
    expect(forget.code).not.toBe(0);
    expect(forget.stderr).toContain("edit or delete that file");
  });
});

describe("memory worker", () => {
  it("indexes the collections at start and re-indexes a folder after a change", async () => {
    requireBuiltCli();
    const child = spawn(process.execPath, [BIN, "worker", "--json"], {
      cwd: ws.dir,
      env: cleanEnv(ws.dir),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    // `count` never syncs (recall would): what it sees is the worker's doing.
    const fragments = async () =>
      json<{ count: number }>(await ws.run(["count", "--category", "handbook", "--json"])).count;
    const waitFor = async (check: (count: number) => boolean) => {
      for (let attempt = 0; attempt < 600; attempt++) {
        const count = await fragments();
        if (check(count)) return count;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the worker did not index in time; its stderr:\n${stderr}`);
    };
    try {
      const first = await waitFor((count) => count > 0);
      writeFileSync(
        ws.file("handbook/holidays.md"),
        "# Holidays\n\nBook holidays in the shared calendar at least two weeks ahead.\n",
      );
      await waitFor((count) => count > first);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited, stderr).toBe(0);
  });
});
