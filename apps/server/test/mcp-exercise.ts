import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { LIST_ENTRY_MAX_CHARS, RESULT_MAX_CHARS } from "../src/mcp/tool-results.js";
import { resourceText, type Structured, textOf } from "./mcp-clients.js";
import { exerciseUsage } from "./mcp-exercise-usage.js";

const TOOLS = [
  "memory_collection_list",
  "memory_collection_sync",
  "memory_consolidate",
  "memory_context",
  "memory_entities",
  "memory_entity",
  "memory_feedback",
  "memory_forget",
  "memory_get",
  "memory_history",
  "memory_kg",
  "memory_list",
  "memory_pin",
  "memory_recall",
  "memory_relate",
  "memory_relations",
  "memory_snooze",
  "memory_store",
  "memory_supersede",
  "memory_unsupersede",
  "memory_usage",
];

/**
 * Per tool, arguments that must be refused: a misspelt field (refused like an unknown HTTP
 * field, never dropped), a wrong type or out-of-bounds value (the HTTP schemas' bounds), a
 * missing required field, and values only the library refuses.
 */
const INVALID_ARGUMENTS: Record<string, Record<string, unknown>[]> = {
  memory_store: [
    { content: "The user likes tea", namspace: "other" },
    { content: 42 },
    { key: "bad", content: "x", category: "no/slash" },
    { key: "bad", content: "x", sessionId: "s".repeat(257) },
    {},
  ],
  memory_recall: [
    { query: "tea", namspace: "other" },
    { query: "tea", limit: 1001 },
    { query: "tea", limit: "5" },
    { query: "q".repeat(10_001) },
    {},
    { query: "tea", collections: "notes" },
    { query: "tea", collections: ["no/slash"] },
  ],
  memory_collection_list: [{ namspace: "other" }],
  memory_collection_sync: [{ name: "no/slash" }, { name: "" }, { names: ["notes"] }],
  memory_context: [{ message: "tea", namspace: "other" }, { message: "tea", maxChars: 10 }, {}],
  memory_get: [
    { key: "user_editor", namspace: "other" },
    {},
    { key: "user_editor", path: "MEMORY.md" },
    { key: "user_editor", offset: -1 },
    { key: "user_editor", lines: 5 },
  ],
  memory_forget: [{ key: "user_editor", namspace: "other" }, {}, { key: 7 }],
  memory_list: [{ namspace: "other" }, { limit: 10_001 }, { categories: "core" }],
  memory_consolidate: [
    { message: "We always deploy on Fridays", namspace: "other" },
    {},
    { message: "x".repeat(100_001) },
  ],
  memory_remember: [{ message: "I prefer dark themes", namspace: "other" }, {}],
  memory_supersede: [
    { oldKey: "user_editor", newKey: "today", namspace: "other" },
    {},
    { oldKey: "user_editor", newKey: "user_editor" },
  ],
  memory_unsupersede: [{ key: "user_editor", namspace: "other" }, {}, { key: "x::history:1" }],
  memory_history: [{ key: "user_editor", namspace: "other" }, {}, { key: "x::history:1" }],
  memory_relate: [
    { from: "user_editor", to: "today", type: "causes", namspace: "other" },
    {},
    { from: "user_editor", to: "user_editor", type: "causes" },
    { from: "user_editor", to: "today", type: "no spaces" },
    { from: "user_editor", to: "today", type: "causes", weight: 2 },
  ],
  memory_kg: [
    { entity: "user", namspace: "other" },
    {},
    { entity: "" },
    { entity: "user", asOf: "someday" },
    { entity: "1234" },
  ],
  memory_relations: [
    { key: "user_editor", namspace: "other" },
    {},
    { key: "user_editor", direction: "up" },
    { key: "user_editor", limit: 0 },
  ],
  memory_entities: [{ namspace: "other" }, { top: 0 }],
  memory_entity: [{ name: "Caroline", namspace: "other" }, {}, { name: "!!" }],
  memory_feedback: [
    { recallId: "r", used: [], namspace: "other" },
    {},
    { recallId: "r", used: "user_editor" },
  ],
  memory_pin: [
    { key: "user_editor", namspace: "other" },
    {},
    { key: "user_editor", pinned: "yes" },
  ],
  memory_snooze: [
    { key: "user_editor", for: "7d", namspace: "other" },
    { key: "user_editor" },
    { key: "user_editor", for: "7 days" },
    { key: "user_editor", until: "2999-01-01", for: "1d" },
  ],
  memory_usage: [{ namspace: "other" }, { limit: 0 }],
};

/**
 * The same conversation over any transport: lists every tool, calls each with valid arguments
 * (structured results, contents once) and with each kind of invalid argument.
 */
export async function exerciseTools(client: Client, options: { remember: boolean }): Promise<void> {
  const { tools } = await client.listTools();
  const expected = options.remember ? [...TOOLS, "memory_remember"].sort() : TOOLS;
  expect(tools.map((tool) => tool.name).sort()).toEqual(expected);
  for (const tool of tools) {
    expect(tool.description!.length).toBeGreaterThan(80);
    expect(tool.outputSchema).toBeDefined();
    // Strict: the listed schema tells clients that unknown arguments are refused.
    expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
  }

  const stored = await client.callTool({
    name: "memory_store",
    arguments: { key: "user_editor", content: "The user edits code in Neovim", category: "core" },
  });
  expect(stored.isError).toBeFalsy();
  expect((stored.structuredContent as Structured).entry).toMatchObject({
    key: "user_editor",
    category: "core",
    contentChars: "The user edits code in Neovim".length,
  });
  await client.callTool({
    name: "memory_store",
    arguments: {
      key: "today",
      content: "Worked on the flaky login test",
      category: "daily",
      sessionId: "s1",
    },
  });

  const recalled = await client.callTool({
    name: "memory_recall",
    arguments: { query: "Neovim editor" },
  });
  const results = (recalled.structuredContent as Structured).results as Structured[];
  expect(results[0]).toMatchObject({ key: "user_editor" });
  expect(typeof results[0]!.score).toBe("number");
  // The content travels once: in the text, not again in the structured part.
  expect(results[0]).not.toHaveProperty("content");
  expect(textOf(recalled).split("The user edits code in Neovim")).toHaveLength(2);
  // The HTTP API's limit bounds: 0 returns nothing, more than 50 is allowed.
  for (const [limit, count] of [
    [0, 0],
    [500, 1],
  ] as const) {
    const bounded = await client.callTool({
      name: "memory_recall",
      arguments: { query: "Neovim editor", limit },
    });
    expect(bounded.isError, `limit ${limit}`).toBeFalsy();
    expect(((bounded.structuredContent as Structured).results as unknown[]).length).toBe(count);
  }

  await exerciseUsage(client, recalled);

  // An empty message (the start of a conversation) gets the top core memories.
  const context = await client.callTool({ name: "memory_context", arguments: { message: "" } });
  expect(context.isError).toBeFalsy();
  expect(textOf(context)).toMatch(/^\[Memory context\]/);
  expect(textOf(context)).toContain("The user edits code in Neovim");
  expect((context.structuredContent as Structured).entries).toEqual([
    expect.objectContaining({ key: "user_editor" }),
  ]);
  const unrelated = await client.callTool({
    name: "memory_context",
    arguments: { message: "zzqx wubble", minScore: 0.9 },
  });
  expect(textOf(unrelated)).toBe("No relevant memories.");

  const got = await client.callTool({ name: "memory_get", arguments: { key: "user_editor" } });
  expect(got.structuredContent).toMatchObject({ found: true, entry: { key: "user_editor" } });
  expect(textOf(got)).toBe("[core] user_editor: The user edits code in Neovim");
  const missing = await client.callTool({ name: "memory_get", arguments: { key: "nope" } });
  expect(missing.structuredContent).toEqual({ found: false });

  const listed = await client.callTool({
    name: "memory_list",
    arguments: { categories: ["daily"] },
  });
  expect(
    ((listed.structuredContent as Structured).entries as Structured[]).map((entry) => entry.key),
  ).toEqual(["today"]);

  const consolidated = await client.callTool({
    name: "memory_consolidate",
    arguments: { message: "We always deploy on Fridays", reply: "Noted." },
  });
  expect(consolidated.isError).toBeFalsy();
  expect((consolidated.structuredContent as Structured).promoted).toMatchObject({
    category: "core",
  });

  if (options.remember) {
    const remembered = await client.callTool({
      name: "memory_remember",
      arguments: { message: "I prefer dark themes", sessionId: "s1" },
    });
    expect(remembered.isError).toBeFalsy();
    expect(textOf(remembered)).toContain("user_theme (preference): The user prefers dark themes");
    expect((remembered.structuredContent as Structured).facts).toEqual([
      expect.objectContaining({ key: "user_theme", kind: "preference", category: "core" }),
    ]);
  }

  // Relations: written, listed with the other memory's excerpt, and gone with their entry.
  const related = await client.callTool({
    name: "memory_relate",
    arguments: { from: "today", to: "user_editor", type: "mentions", weight: 0.5 },
  });
  expect(related.isError, textOf(related)).toBeFalsy();
  const edges = await client.callTool({
    name: "memory_relations",
    arguments: { key: "user_editor" },
  });
  expect(textOf(edges)).toContain('- <- mentions from "today" (weight 0.5): Worked on the flaky');
  const forgot = await client.callTool({ name: "memory_forget", arguments: { key: "today" } });
  expect(forgot.structuredContent).toEqual({ deleted: true });
  const again = await client.callTool({ name: "memory_forget", arguments: { key: "today" } });
  expect(again.structuredContent).toEqual({ deleted: false });
  const after = await client.callTool({
    name: "memory_relations",
    arguments: { key: "user_editor" },
  });
  expect((after.structuredContent as Structured).relations).toEqual([]);

  // Entities: this server does not read them (entity_reading off), and says so.
  const entities = await client.callTool({ name: "memory_entities", arguments: {} });
  expect(entities.isError, textOf(entities)).toBeFalsy();
  expect((entities.structuredContent as Structured).entities).toEqual([]);
  const entity = await client.callTool({ name: "memory_entity", arguments: { name: "Nobody" } });
  expect(entity.isError).toBe(true);
  expect(textOf(entity)).toMatch(/^NOT_FOUND: /);
  // Knowledge graph: no triple was written here, so nothing holds (docs/knowledge-graph.md).
  const kg = await client.callTool({ name: "memory_kg", arguments: { entity: "user" } });
  expect(kg.isError, textOf(kg)).toBeFalsy();
  expect(textOf(kg)).toMatch(/^No fact about "user" holds at /);

  // Repair and history: the versions a same-key store keeps, a supersession and its undoing.
  for (const content of ["The user drinks green tea", "The user drinks black tea"])
    await client.callTool({ name: "memory_store", arguments: { key: "tea", content } });
  const history = await client.callTool({ name: "memory_history", arguments: { key: "tea" } });
  expect(
    ((history.structuredContent as Structured).versions as Structured[]).map((v) => v.key),
  ).toEqual(["tea", "tea::history:1"]);
  expect(textOf(history)).toMatch(/\(current\) .*black tea\n.*\(earlier\) .*green tea$/);
  const superseded = await client.callTool({
    name: "memory_supersede",
    arguments: { oldKey: "tea", newKey: "user_editor" },
  });
  expect(superseded.structuredContent).toMatchObject({
    superseded: true,
    entry: { key: "tea", supersededBy: "user_editor" },
  });
  const restored = await client.callTool({ name: "memory_unsupersede", arguments: { key: "tea" } });
  expect(restored.isError).toBeFalsy();
  expect(textOf(restored)).toContain('"tea" is current again');
  await client.callTool({ name: "memory_forget", arguments: { key: "tea" } });

  const count = async () =>
    (
      (await client.callTool({ name: "memory_list", arguments: { limit: 1000 } }))
        .structuredContent as Structured
    ).entries.length as number;
  const before = await count();
  for (const tool of tools) {
    for (const invalid of INVALID_ARGUMENTS[tool.name]!) {
      const label = `${tool.name} ${JSON.stringify(invalid).slice(0, 80)}`;
      const refused = await client.callTool({ name: tool.name, arguments: invalid });
      expect(refused.isError, label).toBe(true);
      expect(textOf(refused), label).toMatch(
        /^(INVALID_INPUT: |MCP error -32602: Input validation error)/,
      );
      if ("namspace" in invalid) expect(textOf(refused), label).toMatch(/namspace/);
    }
  }
  expect(await count()).toBe(before);
  expect(
    (
      (await client.callTool({ name: "memory_list", arguments: { namespace: "other" } }))
        .structuredContent as Structured
    ).entries,
  ).toEqual([]);

  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri).sort()).toEqual(
    expect.arrayContaining([
      "memory://namespaces/default/core",
      "memory://namespaces/default/summary",
    ]),
  );
  const core = await client.readResource({ uri: "memory://namespaces/default/core" });
  expect(resourceText(core)).toContain("user_editor: The user edits code in Neovim");
  const summary = await client.readResource({ uri: "memory://namespaces/default/summary" });
  expect(JSON.parse(resourceText(summary))).toMatchObject({
    namespace: "default",
    categories: { core: options.remember ? 3 : 2 },
  });
}

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

/**
 * Six entries of a million characters: list and recall stay within their bound (contents cut
 * with a marker), and memory_get reads an entry whole, part by part.
 */
export async function exerciseLargeEntries(client: Client): Promise<void> {
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
