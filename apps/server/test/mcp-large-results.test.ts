import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { LIST_ENTRY_MAX_CHARS, RESULT_MAX_CHARS } from "../src/mcp/tool-results.js";
import { startTestServer, TOKEN_ALL } from "./helpers.js";
import { connect, httpTransport, inMemoryStdio, type Structured, textOf } from "./mcp-clients.js";

const SIZE = 1_000_000;
/** Six entries of a million characters: twice each over 10 MiB before results were bounded. */
const bigContent = (index: number) =>
  `Entry ${index} about lighthouses. ${"The beacon turns slowly over the bay. ".repeat(Math.ceil(SIZE / 30))}`.slice(
    0,
    SIZE,
  );

/** Reads a whole entry through memory_get, part by part, as the markers say. */
async function readWhole(client: Client, key: string): Promise<{ content: string; calls: number }> {
  let content = "";
  let offset: number | undefined = 0;
  let calls = 0;
  while (offset !== undefined) {
    const result = await client.callTool({ name: "memory_get", arguments: { key, offset } });
    calls++;
    const structured = result.structuredContent as Structured;
    const text = textOf(result);
    expect(text.length).toBeLessThanOrEqual(RESULT_MAX_CHARS + 500);
    const start = text.indexOf(": ") + 2;
    const marker = text.lastIndexOf("\n… [continues: memory_get ");
    content += text.slice(start, marker === -1 ? undefined : marker);
    if (structured.nextOffset !== undefined)
      expect(text.slice(marker)).toContain(`"offset":${structured.nextOffset}`);
    offset = structured.nextOffset;
  }
  return { content, calls };
}

async function exerciseLargeEntries(client: Client): Promise<void> {
  for (let index = 1; index <= 6; index++) {
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { key: `big${index}`, content: bigContent(index) },
    });
    expect(stored.isError).toBeFalsy();
    // The content is not sent back.
    expect(textOf(stored).length).toBeLessThan(200);
  }

  for (const [name, args] of [
    ["memory_list", { limit: 10 }],
    ["memory_recall", { query: "lighthouses beacon", limit: 10, minScore: 0 }],
  ] as const) {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, name).toBeFalsy();
    const text = textOf(result);
    expect(text.length, name).toBeLessThanOrEqual(RESULT_MAX_CHARS);
    const structured = result.structuredContent as Structured;
    const entries = (structured.entries ?? structured.results) as Structured[];
    expect(entries).toHaveLength(6);
    for (const entry of entries) {
      expect(entry).not.toHaveProperty("content");
      expect(entry.contentChars).toBe(SIZE);
      expect(entry.contentShown).toBeLessThanOrEqual(LIST_ENTRY_MAX_CHARS);
      expect(text).toContain(
        `… [cut at ${entry.contentShown} of ${SIZE} characters; memory_get {"key":"${entry.key}","namespace":"default","offset":${entry.contentShown}} reads on]`,
      );
    }
  }

  const { content, calls } = await readWhole(client, "big3");
  expect(content).toBe(bigContent(3));
  expect(calls).toBe(Math.ceil(SIZE / RESULT_MAX_CHARS));

  // A part never ends between the two halves of a surrogate pair.
  const emoji = `a${"\u{1F600}".repeat(60_000)}`;
  await client.callTool({ name: "memory_store", arguments: { key: "emoji", content: emoji } });
  const whole = await readWhole(client, "emoji");
  expect(whole.content).toBe(emoji);
  expect(whole.calls).toBe(2);
}

describe("MCP results stay bounded with large entries (official SDK client)", () => {
  it("over stdio: list and recall of six 1,000,000-character entries, and get in parts", async () => {
    const client = await connect(inMemoryStdio());
    await exerciseLargeEntries(client);
  });

  it("over streamable HTTP: the same", async () => {
    const server = await startTestServer();
    const client = await connect(httpTransport(server.url, TOKEN_ALL));
    await exerciseLargeEntries(client);
  });

  it("pages memory_list when the entries do not fit in one answer", async () => {
    const client = await connect(inMemoryStdio());
    // 40 entries of 4,000 characters: 160,000 characters, more than one answer holds.
    for (let index = 0; index < 40; index++)
      await client.callTool({
        name: "memory_store",
        arguments: {
          key: `e${String(index).padStart(2, "0")}`,
          content: `${index} `.padEnd(4000, "z"),
        },
      });
    const keys: string[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const page = await client.callTool({
        name: "memory_list",
        arguments: { limit: 1000, offset },
      });
      pages++;
      expect(textOf(page).length).toBeLessThanOrEqual(RESULT_MAX_CHARS);
      const structured = page.structuredContent as Structured;
      keys.push(...(structured.entries as Structured[]).map((entry) => entry.key as string));
      if (structured.nextOffset !== undefined)
        expect(textOf(page)).toContain(`memory_list with offset ${structured.nextOffset}`);
      offset = structured.nextOffset;
    }
    expect(pages).toBe(2);
    expect([...keys].sort()).toEqual(
      Array.from({ length: 40 }, (_, index) => `e${String(index).padStart(2, "0")}`),
    );
  });
});
