import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MemoryError } from "@memory/api";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_RECORD_BYTES, mineConversations } from "../src/index.js";
import { storeFactory } from "./support/stores.js";

const stores = storeFactory();
afterEach(() => stores.cleanup());

const line = (sessionId: string, type: "user" | "assistant", text: string, time: string) =>
  JSON.stringify({ sessionId, type, message: { role: type, content: text }, timestamp: time });
const session = [
  line("s1", "user", "Keep the API small.", "2025-01-01T10:00:00Z"),
  line("s1", "assistant", "Agreed.", "2025-01-01T10:00:05Z"),
];
const chatgpt = (id: string, text: string) => ({
  id,
  current_node: "b",
  create_time: 1700000000,
  mapping: {
    a: {
      id: "a",
      parent: null,
      children: ["b"],
      message: {
        author: { role: "user" },
        content: { content_type: "text", parts: [text] },
        create_time: 1700000000,
      },
    },
    b: {
      id: "b",
      parent: "a",
      children: [],
      message: {
        author: { role: "assistant" },
        content: { content_type: "text", parts: ["ok"] },
        create_time: 1700000001,
      },
    },
  },
});

describe("mine: bad input is reported per file or line and never stops the import", () => {
  it("a missing path, a binary file with a .md name and an unknown JSON file are skipped with reasons", async () => {
    const memory = stores.sqlite();
    const dir = stores.tempDir();
    writeFileSync(
      path.join(dir, "notes.md"),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    );
    writeFileSync(path.join(dir, "settings.json"), '{"theme": "dark"}');
    writeFileSync(path.join(dir, "session.jsonl"), `${session.join("\n")}\n`);
    const missing = path.join(dir, "nope", "gone.jsonl");
    const report = await mineConversations(memory, [dir, missing]);
    expect(report.skipped.map((skip) => [path.basename(skip.path), skip.code])).toEqual([
      ["notes.md", "BINARY"],
      ["settings.json", "UNKNOWN_FORMAT"],
      ["gone.jsonl", "UNREADABLE"],
    ]);
    expect(report.skipped[2]?.reason).toMatch(/ENOENT/);
    expect(report.stored).toBe(1);
    expect(await memory.count()).toBe(1);
  });

  it("a JSONL line with invalid UTF-8 is reported with its line; the others are imported", async () => {
    const memory = stores.sqlite();
    const file = path.join(stores.tempDir(), "session.jsonl");
    const bad = Buffer.concat([
      Buffer.from('{"sessionId":"s1","type":"user","message":{"content":"caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}'),
    ]);
    writeFileSync(
      file,
      Buffer.concat([Buffer.from(`${session[0]}\n`), bad, Buffer.from(`\n${session[1]}\n`)]),
    );
    const report = await mineConversations(memory, [file]);
    expect(report.skipped).toEqual([
      { path: file, line: 2, code: "INVALID_UTF8", reason: "invalid UTF-8" },
    ]);
    expect(report.stored).toBe(1);
    expect((await memory.list())[0]?.content).toBe("User: Keep the API small.\nAssistant: Agreed.");
  });

  it("a line over the size bound is skipped without being kept, and the next line is read", async () => {
    const memory = stores.sqlite();
    const file = path.join(stores.tempDir(), "big.jsonl");
    const huge = line("s1", "user", "x".repeat(MAX_RECORD_BYTES + 10), "2025-01-01T09:00:00Z");
    writeFileSync(file, `${huge}\n${session.join("\n")}\n`);
    const report = await mineConversations(memory, [file]);
    expect(report.skipped).toEqual([
      { path: file, line: 1, code: "TOO_LARGE", reason: "line too large" },
    ]);
    expect(report.stored).toBe(1);
  });

  it("a JSON export: an oversized, an invalid UTF-8 and a cut-off conversation are skipped, the rest imported", async () => {
    const memory = stores.sqlite();
    const file = path.join(stores.tempDir(), "conversations.json");
    const good = JSON.stringify(chatgpt("c1", "mapping tree one"));
    const large = JSON.stringify(chatgpt("c2", "y".repeat(MAX_RECORD_BYTES)));
    const invalid = Buffer.concat([
      Buffer.from(JSON.stringify(chatgpt("c3", "bad")).slice(0, -1)),
      Buffer.from(',"t":"\xff"}', "latin1"),
    ]);
    const good2 = JSON.stringify(chatgpt("c4", "mapping tree four"));
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`[\n${good},\n${large},\n`),
        invalid,
        Buffer.from(`,\n${good2},\n{"id": "c5", "mapping": {`),
      ]),
    );
    const report = await mineConversations(memory, [file]);
    expect(report.skipped.map((skip) => [skip.line, skip.code])).toEqual([
      [3, "TOO_LARGE"],
      [4, "INVALID_UTF8"],
      [6, "MALFORMED"],
    ]);
    expect(report.skipped[0]?.reason).toMatch(/split the export/);
    expect(report.skipped[2]?.reason).toMatch(/cut off/);
    expect(report.stored).toBe(2);
    expect(await memory.count()).toBe(2);
  });

  it("never follows symlinks: a link loop and a link to a file are reported, real files read once", async () => {
    const memory = stores.sqlite();
    const dir = stores.tempDir();
    mkdirSync(path.join(dir, "a"));
    writeFileSync(path.join(dir, "a", "session.jsonl"), `${session.join("\n")}\n`);
    symlinkSync(dir, path.join(dir, "a", "loop"));
    symlinkSync(path.join(dir, "a", "session.jsonl"), path.join(dir, "again.jsonl"));
    const report = await mineConversations(memory, [dir]);
    expect(report.skipped.map((skip) => [path.relative(dir, skip.path), skip.code])).toEqual([
      [path.join("a", "loop"), "SYMLINK"],
      ["again.jsonl", "SYMLINK"],
    ]);
    expect(report).toMatchObject({ files: 1, stored: 1 });
  });

  it("an unknown --format is a typed INVALID_INPUT error that names the formats; nothing is stored", async () => {
    const memory = stores.sqlite();
    const error = await mineConversations(memory, [stores.tempDir()], {
      format: "whatsapp" as never,
    }).catch((caught: unknown) => caught);
    expect(MemoryError.isInstance(error)).toBe(true);
    expect((error as MemoryError).code).toBe("INVALID_INPUT");
    expect((error as Error).message).toMatch(/claude-code, codex, chatgpt, claude-ai, slack, text/);
    expect(await memory.count()).toBe(0);
  });
});
