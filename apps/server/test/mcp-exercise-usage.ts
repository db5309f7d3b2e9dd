import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { type Structured, textOf } from "./mcp-clients.js";

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/**
 * Usage in the MCP exercise (docs/usage.md), after `recalled` (a memory_recall that returned
 * user_editor): its recallId takes feedback, a pin and a snooze mark entries, the report counts
 * them; the marks are cleared again, so the exercise's later steps see the entries unmarked.
 */
export async function exerciseUsage(client: Client, recalled: ToolResult): Promise<void> {
  const { recallId } = recalled.structuredContent as Structured;
  expect(textOf(recalled)).toContain(`(recallId ${recallId}: after answering, memory_feedback`);
  const fed = await client.callTool({
    name: "memory_feedback",
    arguments: { recallId, used: ["user_editor"] },
  });
  expect(fed.structuredContent, textOf(fed)).toEqual({
    recallId,
    used: ["user_editor"],
    ignored: [],
  });
  const pinned = await client.callTool({ name: "memory_pin", arguments: { key: "user_editor" } });
  expect((pinned.structuredContent as Structured).entry).toMatchObject({ pinned: true });
  const snoozed = await client.callTool({
    name: "memory_snooze",
    arguments: { key: "today", for: "1d" },
  });
  expect(textOf(snoozed)).toMatch(/^"today" is snoozed until /);
  const usage = await client.callTool({ name: "memory_usage", arguments: { candidates: true } });
  const used = ((usage.structuredContent as Structured).entries as Structured[]).find(
    (entry) => entry.key === "user_editor",
  );
  expect(used, textOf(usage)).toMatchObject({ pinned: true, stats: { used: 1 } });
  await client.callTool({ name: "memory_snooze", arguments: { key: "today", unsnooze: true } });
  await client.callTool({ name: "memory_pin", arguments: { key: "user_editor", pinned: false } });
}
