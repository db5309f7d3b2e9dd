import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

interface ImportResult {
  imported: number;
  rejected: { line: number; code: string; message: string }[];
  lines: number;
}

// docs/input-rules.md: `memory import` refuses what HTTP and MCP refuse, line by line.
function hostileJsonl(): Buffer {
  const text = (value: string) => Buffer.from(value, "utf8");
  return Buffer.concat([
    text(`\uFEFF${JSON.stringify({ key: "good", content: "a good line after a BOM" })}\n`),
    // Line 2: invalid UTF-8 (0xFF 0xFE) inside a string; it must not become U+FFFD.
    text('{"key":"bad-bytes","content":"broken '),
    Buffer.from([0xff, 0xfe]),
    text(' here"}\n'),
    // Line 3: JSON null for an optional field is refused, not read as "left out".
    text(`${JSON.stringify({ key: "null-namespace", content: "x", namespace: null })}\n`),
    text(`${JSON.stringify({ key: "null-session", content: "x", sessionId: null })}\n`),
    // Line 5: an escaped lone surrogate decodes to a string no backend can store as UTF-8.
    text('{"key":"lone","content":"half \\ud800 a pair"}\n'),
    // Line 6: an overlong encoding of "/" (0xC0 0xAF) is invalid UTF-8 too.
    text('{"key":"overlong","content":"a'),
    Buffer.from([0xc0, 0xaf]),
    text('b"}\n'),
    // Line 7: a wide namespace, accepted; CRLF line ending.
    text(
      `${JSON.stringify({ key: "ключ", content: "wide namespace", namespace: "alice@example.com" })}\r\n`,
    ),
    // Line 8: a truncated multi-byte character at the end of the file, no final newline.
    text('{"key":"truncated","content":"'),
    Buffer.from([0xe8, 0xa8]),
  ]);
}

describe("memory import: bad bytes and null fields", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace();
    writeFileSync(ws.file("hostile.jsonl"), hostileJsonl());
  });
  afterAll(() => ws.remove());

  it("rejects invalid UTF-8 lines, null fields and lone surrogates by line number", async () => {
    const result = await ws.run(["import", "hostile.jsonl", "--json"]);
    expect(result.code).toBe(1);
    const body = json<ImportResult>(result);
    expect(body.lines).toBe(8);
    expect(body.imported).toBe(2);
    expect(body.rejected.map((rejection) => [rejection.line, rejection.code])).toEqual([
      [2, "INVALID_INPUT"],
      [3, "INVALID_INPUT"],
      [4, "INVALID_INPUT"],
      [5, "INVALID_INPUT"],
      [6, "INVALID_INPUT"],
      [8, "INVALID_INPUT"],
    ]);
    const messages = body.rejected.map((rejection) => rejection.message);
    expect(messages[0]).toMatch(/not valid UTF-8/);
    expect(messages[1]).toMatch(/namespace is null; leave the field out/);
    expect(messages[2]).toMatch(/sessionId is null/);
    expect(messages[3]).toMatch(/lone UTF-16 surrogate/);
    expect(messages[4]).toMatch(/not valid UTF-8/);
    expect(messages[5]).toMatch(/not valid UTF-8/);
  });

  it("stored only the good lines, with no U+FFFD anywhere", async () => {
    const exported = await ws.run(["export"]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).not.toContain("\uFFFD");
    const entries = exported.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { key: string; namespace: string });
    expect(entries.map((entry) => [entry.namespace, entry.key]).sort()).toEqual([
      ["alice@example.com", "ключ"],
      ["default", "good"],
    ]);
  });
});
