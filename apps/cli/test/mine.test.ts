import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatServer } from "@memory/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeChatWorkspace, openChatWorkspace } from "./helpers/chat-workspace.js";
import { json, type Workspace } from "./helpers/run-memory.js";

// The library's fixtures, written from each format's public documentation.
const FIXTURES = fileURLToPath(
  new URL("../../../packages/lifecycle/test/fixtures/mine/", import.meta.url),
);
const EXCHANGES = 15;

interface Report {
  files: number;
  conversations: number;
  exchanges: number;
  stored: number;
  dryRun: boolean;
  skipped: { path: string; line?: number; code: string; reason: string }[];
  preview?: { key: string; createdAt?: string }[];
  synthesis?: { extracted: number; saved: number; failed: number };
}

let server: ChatServer;
let ws: Workspace;
beforeAll(async () => {
  ({ server, ws } = await openChatWorkspace());
});
afterAll(() => closeChatWorkspace({ server, ws }));

describe("memory mine", () => {
  it("--dry-run reports every exchange and stores nothing", async () => {
    const result = await ws.run(["mine", FIXTURES, "--dry-run", "--json"]);
    // The fixtures hold a malformed line and a malformed conversation on purpose: exit 1.
    expect(result.code, result.stderr).toBe(1);
    const report = json<Report>(result);
    expect(report).toMatchObject({ dryRun: true, exchanges: EXCHANGES, stored: 0, files: 7 });
    expect(report.preview).toHaveLength(EXCHANGES);
    expect(report.skipped.map((skip) => [path.basename(skip.path), skip.code])).toEqual([
      ["chatgpt-conversations.json", "MALFORMED"],
      ["claude-code-session.jsonl", "MALFORMED"],
      ["not-a-transcript.txt", "UNKNOWN_FORMAT"],
    ]);
    const count = await ws.run(["count", "--json"]);
    expect(json<{ count: number }>(count).count).toBe(0);
  });

  it("imports a folder of exports into a namespace, and a rerun does not duplicate", async () => {
    const first = await ws.run(["mine", FIXTURES, "-n", "history", "--json"]);
    expect(first.code, first.stderr).toBe(1);
    expect(json<Report>(first)).toMatchObject({ stored: EXCHANGES, conversations: 9 });
    const again = await ws.run(["mine", FIXTURES, "-n", "history", "--json"]);
    expect(json<Report>(again).stored).toBe(EXCHANGES);
    const count = await ws.run(["count", "-n", "history", "--json"]);
    expect(json<{ count: number }>(count).count).toBe(EXCHANGES);
    // The exchanges keep their 2024 times, so default recall decays them below min_score
    // (half_life_days = 7): docs/mine.md says to pass --min-score 0 or raise half_life_days.
    const recalled = await ws.run([
      "recall",
      "Lisbon afternoon flight",
      "-n",
      "history",
      "--min-score",
      "0",
      "--json",
    ]);
    expect(recalled.stdout).toContain("Four days, with an afternoon flight.");
  });

  it("reports a malformed line as path:line, imports the rest and exits 1", async () => {
    const dir = ws.file("broken");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "session.jsonl");
    writeFileSync(
      file,
      [
        '{"sessionId":"s9","type":"user","message":{"content":"Ship on Monday."},"timestamp":"2025-02-03T08:00:00+01:00"}',
        "{not json",
        '{"sessionId":"s9","type":"assistant","message":{"content":[{"type":"text","text":"Monday it is."}]},"timestamp":"2025-02-03T08:00:09+01:00"}',
      ].join("\n"),
    );
    const result = await ws.run(["mine", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("stored 1 exchanges from 1 conversations in 1 files");
    expect(result.stdout).toContain(`${file}:2: MALFORMED: not JSON`);
    const list = await ws.run(["list", "-s", "s9", "--json"]);
    expect(list.stdout).toContain("2025-02-03T07:00:00.000Z");
  });

  it("--synthesize stores the chat model's facts and counts them", async () => {
    server.reset();
    server.reply({
      content: JSON.stringify({
        facts: [{ content: "The user prefers modal editing", kind: "preference", exchange: 2 }],
      }),
    });
    const result = await ws.run(
      ["mine", path.join(FIXTURES, "transcript.txt"), "--synthesize", "--json"],
      { env: { MEMORY_CHAT_API_KEY: "sk-test" } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(json<Report>(result).synthesis).toMatchObject({ extracted: 1, saved: 1, failed: 0 });
    const core = await ws.run(["list", "-c", "core", "--json"]);
    expect(core.stdout).toContain("The user prefers modal editing");
  });

  it("an unknown --format is an input error that names the formats", async () => {
    const result = await ws.run(["mine", FIXTURES, "--format", "whatsapp"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Unknown format "whatsapp"/);
  });
});
