import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

interface ImportResult {
  imported: number;
  rejected: { line: number; code: string; message: string }[];
  lines: number;
}

const LINES = 50_000;
// 1-based line numbers of the malformed lines: broken JSON, not an object, an empty key.
const BAD_LINES = [100, 25_001, 49_999];

function bigJsonl(): string {
  const lines: string[] = [];
  for (let index = 0; index < LINES; index++) {
    lines.push(
      JSON.stringify({
        key: `fact-${index}`,
        content: `fact number ${index} about topic ${index % 97}`,
        category: index % 3 === 0 ? "core" : "daily",
        namespace: index % 2 === 0 ? "even" : "odd",
      }),
    );
  }
  lines[BAD_LINES[0]! - 1] = "{not json";
  lines[BAD_LINES[1]! - 1] = "[1, 2, 3]";
  lines[BAD_LINES[2]! - 1] = JSON.stringify({ key: "", content: "no key" });
  return `${lines.join("\n")}\n`;
}

describe("memory import (50k lines, 3 malformed)", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace();
    writeFileSync(ws.file("big.jsonl"), bigJsonl());
  });
  afterAll(() => ws.remove());

  it("imports every good line and reports the bad line numbers", async () => {
    const result = await ws.run(["import", "big.jsonl", "--json"]);
    // Rejected lines make the import a (partial) failure for scripts.
    expect(result.code).toBe(1);
    const body = json<ImportResult>(result);
    expect(body.imported).toBe(LINES - 3);
    expect(body.lines).toBe(LINES);
    expect(body.rejected.map((rejection) => rejection.line)).toEqual(BAD_LINES);
    expect(body.rejected.map((rejection) => rejection.code)).toEqual([
      "INVALID_JSON",
      "INVALID_INPUT",
      "INVALID_INPUT",
    ]);
    expect(body.rejected[2]!.message).toContain("key is empty");

    // Line 25 001 (index 25 000) is in "even", line 49 999 (index 49 998) too; line 100 in "odd".
    expect(json(await ws.run(["count", "--namespace", "even", "--json"]))).toMatchObject({
      count: LINES / 2 - 2,
    });
    expect(json(await ws.run(["count", "--namespace", "odd", "--json"]))).toMatchObject({
      count: LINES / 2 - 1,
    });
    expect(json(await ws.run(["get", "fact-49997", "--namespace", "odd", "--json"]))).toMatchObject(
      { content: "fact number 49997 about topic 42" },
    );
  });

  it("is idempotent: importing again adds nothing", async () => {
    const again = json<ImportResult>(await ws.run(["import", "big.jsonl", "--json"]));
    expect(again.imported).toBe(LINES - 3);
    expect(json(await ws.run(["count", "--namespace", "even", "--json"]))).toMatchObject({
      count: LINES / 2 - 2,
    });
  });
});

describe("memory export", () => {
  let source: Workspace;
  let target: Workspace;
  beforeAll(async () => {
    source = new Workspace();
    target = new Workspace();
    const entries = [
      ["store", "Prefers TypeScript", "--key", "lang", "--importance", "0.9"],
      ["store", 'Multi\nline\ncontent with "quotes" and ünïcödé 记忆', "--key", "multi"],
      ["store", "Standup at 10", "--key", "standup", "--category", "daily", "--session", "s1"],
      ["store", "Tenant B fact", "--key", "lang", "--namespace", "tenant-b"],
      ["store", "Custom category entry", "--key", "custom", "--category", "project_notes"],
    ];
    for (const args of entries) expect((await source.run(args)).code).toBe(0);
  });
  afterAll(() => {
    source.remove();
    target.remove();
  });

  it("streams JSONL to stdout, one entry per line, every namespace", async () => {
    const result = await source.run(["export"]);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { key: string; namespace: string });
    expect(lines).toHaveLength(5);
    expect(new Set(lines.map((entry) => entry.namespace))).toEqual(
      new Set(["default", "tenant-b"]),
    );
    const filtered = (await source.run(["export", "--namespace", "tenant-b"])).stdout
      .trim()
      .split("\n");
    expect(filtered).toHaveLength(1);
  });

  it("round-trips through import into a fresh store with identical entries", async () => {
    const exported = await source.run(["export", "--output", "dump.jsonl", "--json"]);
    expect(json(exported)).toMatchObject({ exported: 5, format: "jsonl" });
    const imported = await target.run(["import", source.file("dump.jsonl"), "--json"]);
    expect(imported.code).toBe(0);
    expect(json<ImportResult>(imported)).toMatchObject({ imported: 5, rejected: [] });

    const before = readFileSync(source.file("dump.jsonl"), "utf8");
    const after = (await target.run(["export"])).stdout;
    expect(after).toBe(before);
    // The conflict decisions kept with core entries travel too (docs/history.md).
    expect(before).toContain('"conflictRecord":{"decidedAt"');
  });

  it("imports JSONL from stdin", async () => {
    const fresh = new Workspace();
    try {
      const dump = readFileSync(source.file("dump.jsonl"), "utf8");
      const result = await fresh.run(["import", "--json"], { input: dump });
      expect(json<ImportResult>(result)).toMatchObject({ imported: 5, lines: 5, rejected: [] });
      expect(json(await fresh.run(["get", "multi", "--json"]))).toMatchObject({
        content: 'Multi\nline\ncontent with "quotes" and ünïcödé 记忆',
      });
    } finally {
      fresh.remove();
    }
  });

  it("copies a namespace: an export with only the namespace changed imports with new ids", async () => {
    const exported = (await source.run(["export", "--namespace", "tenant-b"])).stdout;
    const copy = exported.replaceAll('"namespace":"tenant-b"', '"namespace":"tenant-c"');
    expect(copy).not.toBe(exported);
    const result = await source.run(["import", "--json"], { input: copy });
    expect(result.code, result.stderr).toBe(0);
    expect(json<ImportResult>(result)).toMatchObject({ imported: 1, rejected: [] });
    const original = json<{ id: string }>(
      await source.run(["get", "lang", "--namespace", "tenant-b", "--json"]),
    );
    const copied = json<{ id: string; content: string }>(
      await source.run(["get", "lang", "--namespace", "tenant-c", "--json"]),
    );
    expect(copied.content).toBe("Tenant B fact");
    expect(copied.id).not.toBe(original.id);
    expect((await source.run(["purge", "--namespace", "tenant-c", "--yes"])).code).toBe(0);
  });

  it("writes a Markdown snapshot of the live core entries", async () => {
    const result = await source.run(["export", "--format", "snapshot"]);
    expect(result.code).toBe(0);
    const text = result.stdout;
    expect(text.startsWith("# MEMORY snapshot\n")).toBe(true);
    expect(text).toContain("## namespace: default");
    expect(text).toContain("## namespace: tenant-b");
    // One line per entry; the metadata is a JSON comment (packages/api README, "Snapshot format").
    expect(text).toMatch(
      /^- \*\*lang\*\*: Prefers TypeScript <!-- memory \{.*"importance":0\.9.*\} -->$/m,
    );
    expect(text).toMatch(/^- \*\*multi\*\*: Multi\\nline\\ncontent with .* <!-- memory /m);
    // Only core entries: daily and custom categories are not long-term memory.
    expect(text).not.toContain("standup");
    expect(text).not.toContain("Custom category entry");
  });
});
