import { createInMemoryMemory } from "@memory/testkit";
import { memoryToolDefinitions } from "@memory/tools";
import { describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A } from "./helpers.js";
import { connect, httpTransport, type Structured, textOf } from "./mcp-clients.js";

// Usage through the official MCP client over HTTP (docs/usage.md): memory_recall hands the
// model a recallId, memory_feedback records what it used, memory_pin and memory_snooze mark
// entries, memory_usage reports; a token's namespace scope holds for each.

describe("MCP: memory_feedback, memory_pin, memory_snooze, memory_usage", () => {
  it("recall gives a recallId the model can feed back on, and usage reports it", async () => {
    const server = await startTestServer();
    for (const [key, content] of [
      ["editor", "The user edits code in Neovim"],
      ["tea", "The user drinks green tea"],
    ])
      await server.memory.store({ key: key!, content: content!, namespace: "a" });
    const client = await connect(httpTransport(server.url, TOKEN_A));

    const recalled = await client.callTool({
      name: "memory_recall",
      arguments: { query: "the user", minScore: 0 },
    });
    const { recallId } = recalled.structuredContent as Structured;
    expect(recallId).toEqual(expect.any(String));
    expect(textOf(recalled)).toContain(
      `(recallId ${recallId}: after answering, memory_feedback with it and the keys you used.)`,
    );

    const context = await client.callTool({
      name: "memory_context",
      arguments: { message: "Which editor, Neovim?", minScore: 0 },
    });
    const contextId = (context.structuredContent as Structured).recallId;
    expect(contextId).toEqual(expect.any(String));
    expect(textOf(context)).toMatch(
      new RegExp(`\\n\\(recallId ${contextId}: after answering, memory_feedback with it`),
    );

    const fed = await client.callTool({
      name: "memory_feedback",
      arguments: { recallId, used: ["editor"], ignored: ["tea"] },
    });
    expect(fed.isError, textOf(fed)).toBeFalsy();
    expect(textOf(fed)).toBe(`Feedback recorded for ${recallId}: used: editor; ignored: tea.`);
    expect(fed.structuredContent).toEqual({ recallId, used: ["editor"], ignored: ["tea"] });
    const unknown = await client.callTool({
      name: "memory_feedback",
      arguments: { recallId: "no-such-recall", used: ["editor"] },
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^NOT_FOUND: /);

    const pinned = await client.callTool({ name: "memory_pin", arguments: { key: "editor" } });
    expect(textOf(pinned)).toBe(
      '"editor" is pinned: always eligible for the memory context, and never pruned.',
    );
    expect((pinned.structuredContent as Structured).entry).toMatchObject({ pinned: true });

    const snoozed = await client.callTool({
      name: "memory_snooze",
      arguments: { key: "tea", for: "7d" },
    });
    expect(snoozed.isError, textOf(snoozed)).toBeFalsy();
    expect(textOf(snoozed)).toMatch(/^"tea" is snoozed until \d{4}-\d\d-\d\dT/);
    const hidden = await client.callTool({
      name: "memory_recall",
      arguments: { query: "green tea", minScore: 0 },
    });
    const keys = (result: typeof hidden) =>
      ((result.structuredContent as Structured).results as Structured[]).map((e) => e.key);
    expect(keys(hidden)).not.toContain("tea");
    const shown = await client.callTool({
      name: "memory_recall",
      arguments: { query: "green tea", minScore: 0, includeSnoozed: true },
    });
    expect(keys(shown)).toContain("tea");

    const usage = await client.callTool({
      name: "memory_usage",
      arguments: { candidates: true },
    });
    expect(usage.isError, textOf(usage)).toBeFalsy();
    expect(textOf(usage)).toContain('Usage in namespace "a", most used first:\n- editor: used 1');
    expect(textOf(usage)).toContain("[pinned]");
    const report = usage.structuredContent as Structured;
    expect(report.namespace).toBe("a");
    expect(report.pinCandidates).toEqual(expect.any(Array));

    const woken = await client.callTool({
      name: "memory_snooze",
      arguments: { key: "tea", unsnooze: true },
    });
    expect(textOf(woken)).toBe(
      '"tea" is awake: memory_recall and the memory context return it again.',
    );
    const unpinned = await client.callTool({
      name: "memory_pin",
      arguments: { key: "editor", pinned: false },
    });
    expect(textOf(unpinned)).toBe('"editor" is no longer pinned.');

    // Namespace b is not this token's.
    for (const [name, args] of [
      ["memory_feedback", { recallId, used: ["editor"], namespace: "b" }],
      ["memory_pin", { key: "editor", namespace: "b" }],
      ["memory_snooze", { key: "editor", for: "1d", namespace: "b" }],
      ["memory_usage", { namespace: "b" }],
    ] as const) {
      const refused = await client.callTool({ name, arguments: args });
      expect(refused.isError, name).toBe(true);
      expect(textOf(refused), name).toMatch(/^FORBIDDEN: /);
    }
  });
});

describe("memory_recall of @memory/tools (the framework adapters')", () => {
  it("carries the recall's recallId in its data, for a host that reports feedback", async () => {
    const memory = createInMemoryMemory();
    await memory.store({ key: "editor", content: "The user edits code in Neovim" });
    const recall = memoryToolDefinitions(memory).find((tool) => tool.name === "memory_recall")!;
    const result = await recall.execute({ query: "Neovim", minScore: 0 });
    const { recallId, results } = result.data as { recallId: string; results: { key: string }[] };
    expect(results.map((entry) => entry.key)).toEqual(["editor"]);
    await expect(memory.feedback({ recallId, used: ["editor"] })).resolves.toMatchObject({
      used: ["editor"],
    });
  });
});
