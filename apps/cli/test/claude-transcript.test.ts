import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lastTurn, readLastTurn } from "../src/commands/hooks/claude-transcript.js";

const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "user", message: { role: "user", content }, ...extra });
const assistant = (content: unknown) =>
  JSON.stringify({ type: "assistant", message: { role: "assistant", content } });

describe("lastTurn (Claude Code transcript JSONL)", () => {
  it("takes the last prompt and the last assistant text after it, skipping tool traffic", () => {
    const turn = lastTurn([
      user("first question"),
      assistant([{ type: "text", text: "first answer" }]),
      user("second question"),
      assistant([
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "t1", name: "Bash", input: {} },
      ]),
      user([{ type: "tool_result", tool_use_id: "t1", content: "ok" }]),
      assistant([{ type: "text", text: "Done: it passes." }]),
    ]);
    expect(turn).toEqual({ userMessage: "second question", assistantReply: "Done: it passes." });
  });

  it("ignores meta lines, summaries and a line still being written", () => {
    const turn = lastTurn([
      JSON.stringify({ type: "summary", summary: "s", leafUuid: "x" }),
      user("the question"),
      user("Caveat: local command output", { isMeta: true }),
      assistant("the answer"),
      '{"type":"user","message":{"role":"us',
    ]);
    expect(turn).toEqual({ userMessage: "the question", assistantReply: "the answer" });
  });

  it("returns undefined when there is no user prompt", () => {
    expect(lastTurn([assistant("hello"), ""])).toBeUndefined();
  });
});

describe("readLastTurn", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-transcript-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a transcript through a symlink, and refuses relative paths and directories", async () => {
    const file = path.join(dir, "t.jsonl");
    writeFileSync(file, `${user("q")}\n${assistant("a")}\n`);
    symlinkSync(file, path.join(dir, "link.jsonl"));
    expect(await readLastTurn(path.join(dir, "link.jsonl"))).toEqual({
      userMessage: "q",
      assistantReply: "a",
    });
    await expect(readLastTurn("t.jsonl")).rejects.toThrow(/must be absolute/);
    await expect(readLastTurn(dir)).rejects.toThrow(/is not a file/);
  });
});
