import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import {
  appendTranscript,
  configuredJobs,
  endSession,
  pruneTranscripts,
  readTranscript,
  TRANSCRIPTS_JOB,
  transcriptPath,
  validateSessionId,
} from "../src/index.js";
import { chatModelFor, useChatFixture } from "./support/stores.js";

const chat = useChatFixture();
const { stores } = chat;

const AT = new Date("2026-03-01T10:00:00.000Z");

describe("session transcripts", () => {
  it("appends one JSON line per entry, of the four types, and reads them back", async () => {
    const dir = path.join(stores.tempDir(), "sessions");
    await appendTranscript(
      dir,
      "s-1",
      { type: "message", role: "user", content: "hi" },
      { now: AT },
    );
    await appendTranscript(
      dir,
      "s-1",
      [
        { type: "tool_call", id: "t1", name: "memory_recall", arguments: { query: "editor" } },
        { type: "tool_result", id: "t1", content: [{ key: "editor" }] },
        { type: "compaction", summary: "greeted", replacedLines: 3 },
      ],
      { now: AT },
    );
    const text = readFileSync(transcriptPath(dir, "s-1"), "utf8");
    expect(text.split("\n")).toHaveLength(5);
    const { lines, corrupt } = await readTranscript(dir, "s-1");
    expect(corrupt).toBe(0);
    expect(lines.map((line) => line.type)).toEqual([
      "message",
      "tool_call",
      "tool_result",
      "compaction",
    ]);
    expect(lines[0]).toEqual({
      type: "message",
      role: "user",
      content: "hi",
      at: AT.toISOString(),
    });
    expect(await readTranscript(dir, "other")).toEqual({ lines: [], corrupt: 0 });
  });

  it("skips a torn last line", async () => {
    const dir = path.join(stores.tempDir(), "sessions");
    await appendTranscript(dir, "s2", { type: "message", role: "user", content: "a" });
    writeFileSync(
      transcriptPath(dir, "s2"),
      `${readFileSync(transcriptPath(dir, "s2"), "utf8")}{"type":"mes`,
    );
    expect(await readTranscript(dir, "s2")).toMatchObject({
      corrupt: 1,
      lines: [{ content: "a" }],
    });
  });

  it("refuses session ids that could leave the directory, and unknown line types", async () => {
    const dir = path.join(stores.tempDir(), "sessions");
    for (const id of ["../x", "a/b", "..", ".hidden", "", "a..b", "x".repeat(129), "a\\b"]) {
      expect(() => validateSessionId(id), id).toThrow(/cannot name a transcript/);
    }
    await expect(
      appendTranscript(dir, "../../etc/passwd", { type: "message", role: "user", content: "x" }),
    ).rejects.toSatisfy((error) => MemoryError.hasCode(error, "INVALID_INPUT"));
    await expect(
      appendTranscript(dir, "ok", { type: "shout", content: "x" } as never),
    ).rejects.toSatisfy((error) => MemoryError.hasCode(error, "INVALID_INPUT"));
  });

  it("prunes transcripts not written for the retention period, and is a job", async () => {
    const root = stores.tempDir();
    const dir = path.join(root, "sessions");
    await appendTranscript(dir, "old", { type: "message", role: "user", content: "a" });
    await appendTranscript(dir, "new", { type: "message", role: "user", content: "b" });
    writeFileSync(path.join(dir, "notes.txt"), "not a transcript");
    const old = new Date("2026-01-01T00:00:00.000Z");
    utimesSync(transcriptPath(dir, "old"), old, old);
    const now = new Date("2026-03-01T00:00:00.000Z");
    utimesSync(transcriptPath(dir, "new"), now, now);
    const dry = await pruneTranscripts(dir, { retentionDays: 30, now, dryRun: true });
    expect(dry).toMatchObject({ before: 2, deleted: ["old"], dryRun: true });
    expect((await readTranscript(dir, "old")).lines).toHaveLength(1);

    const config = {
      memory: {
        data_dir: root,
        hygiene_enabled: false,
        snapshot_enabled: false,
        curator_enabled: true,
        transcripts_enabled: true,
        transcript_retention_days: 30,
        hygiene_interval_hours: 12,
        curator_interval_hours: 24,
      },
    } as unknown as Parameters<typeof configuredJobs>[0];
    const [job] = configuredJobs(config);
    expect(job?.name).toBe(TRANSCRIPTS_JOB);
    const report = await job?.run({
      memory: stores.sqlite(),
      now,
      signal: new AbortController().signal,
    });
    expect(report).toMatchObject({ before: 2, deleted: ["old"], dryRun: false });
    expect((await readTranscript(dir, "old")).lines).toEqual([]);
    expect((await readTranscript(dir, "new")).lines).toHaveLength(1);
    expect(await pruneTranscripts(path.join(root, "missing"), { retentionDays: 1 })).toMatchObject({
      before: 0,
      deleted: [],
    });
  });
});

describe("endSession", () => {
  async function transcript(id: string) {
    const dir = path.join(stores.tempDir(), "sessions");
    await appendTranscript(dir, id, [
      { type: "message", role: "user", content: "Can you help me plan the Lisbon trip?" },
      { type: "message", role: "assistant", content: "Sure, when do you leave?" },
      { type: "tool_call", name: "calendar", arguments: { month: "May" } },
      { type: "tool_result", name: "calendar", content: "free 3-10 May" },
      { type: "message", role: "user", content: "Let's book 3 to 10 May." },
    ]);
    return dir;
  }

  it("writes the chat model's summary to the daily log when the session wrote nothing", async () => {
    const memory = stores.sqlite();
    const dir = await transcript("trip");
    chat.server.reply({ content: "Planned the Lisbon trip; decided on 3-10 May." });
    const result = await endSession(memory, {
      sessionId: "trip",
      transcriptDir: dir,
      chatModel: chatModelFor(chat.server.baseURL),
    });
    expect(result.outcome).toBe("summarized");
    expect(result.method).toBe("llm");
    expect(result.written).toMatchObject({
      category: "daily",
      sessionId: "trip",
      content: "Session trip summary: Planned the Lisbon trip; decided on 3-10 May.",
    });
    expect(chat.server.userMessages()[0]?.[0]).toContain("tool call calendar");
    // Idempotent: the summary is now memory of the session.
    expect(await endSession(memory, { sessionId: "trip", transcriptDir: dir })).toEqual({
      written: null,
      outcome: "had-memory",
    });
    expect(chat.server.requests).toHaveLength(1);
  });

  it("without a chat model, or when it fails or answers nothing, extracts a summary", async () => {
    const memory = stores.sqlite();
    const dir = await transcript("t1");
    const plain = await endSession(memory, { sessionId: "t1", transcriptDir: dir });
    expect(plain.method).toBe("extract");
    expect(plain.written?.content).toBe(
      "Session t1 summary: 2 user messages; started with: Can you help me plan the Lisbon trip?; ended with: Let's book 3 to 10 May.",
    );

    await transcript("t2");
    const dir2 = await transcript("t2");
    chat.server.reply({ status: 500 }, { status: 500 });
    const failed = await endSession(memory, {
      sessionId: "t2",
      transcriptDir: dir2,
      chatModel: chatModelFor(chat.server.baseURL),
    });
    expect(failed.method).toBe("extract");
    expect(failed.llmError).toMatch(/HTTP 500/);

    const dir3 = await transcript("t3");
    chat.server.reply({ content: "   " });
    const blank = await endSession(memory, {
      sessionId: "t3",
      transcriptDir: dir3,
      chatModel: chatModelFor(chat.server.baseURL),
    });
    expect(blank).toMatchObject({ method: "extract", llmError: /empty summary/ });
  });

  it("does nothing when the session stored memory or has no user message", async () => {
    const memory = stores.sqlite();
    await memory.store({ key: "k", content: "fact", sessionId: "busy" });
    expect(
      await endSession(memory, {
        sessionId: "busy",
        lines: [{ type: "message", role: "user", content: "x" }],
        chatModel: chatModelFor(chat.server.baseURL),
      }),
    ).toEqual({ written: null, outcome: "had-memory" });
    expect(
      await endSession(memory, {
        sessionId: "quiet",
        lines: [{ type: "message", role: "assistant", content: "hello?" }],
      }),
    ).toEqual({ written: null, outcome: "empty" });
    expect(chat.server.requests).toHaveLength(0);
    await expect(endSession(memory, { sessionId: "../x" })).rejects.toSatisfy((error) =>
      MemoryError.hasCode(error, "INVALID_INPUT"),
    );
  });
});
