import { describe, expect, it } from "vitest";
import { RESULT_MAX_CHARS } from "../src/mcp/tool-results.js";
import { startTestServer, TOKEN_ALL } from "./helpers.js";
import { connect, httpTransport, inMemoryStdio, type Structured, textOf } from "./mcp-clients.js";
import { exerciseLargeEntries } from "./mcp-exercise.js";

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
