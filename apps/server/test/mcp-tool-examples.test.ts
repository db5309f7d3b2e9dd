import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { mcpToolSpec } from "../src/mcp/tool-definition.js";
import { mainEntry, openTestBackend, requireServerBuilt, requireSqliteBuilt } from "./backends.js";
import { startTestServer, TOKEN_ALL } from "./helpers.js";
import { connect, httpTransport, type Structured, stdioTransport, textOf } from "./mcp-clients.js";

/**
 * Every example the tool descriptions give, checked on both MCP channels over SQLite: stdio
 * (`node dist/main.mjs --mcp`, what `memory mcp` runs) and streamable HTTP (/mcp). A
 * description that changes its example must change the test with it.
 */
// The descriptions the server shows (@memory/tools' words, with the bounded-results notes).
const MEMORY_CONSOLIDATE_DESCRIPTION = mcpToolSpec("memory_consolidate").description;
const MEMORY_CONTEXT_DESCRIPTION = mcpToolSpec("memory_context").description;
const MEMORY_RECALL_DESCRIPTION = mcpToolSpec("memory_recall").description;
const MEMORY_STORE_DESCRIPTION = mcpToolSpec("memory_store").description;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const channels: Record<string, () => Promise<Client>> = {
  "stdio (dist/main.mjs --mcp, SQLite)": async () => {
    requireServerBuilt();
    requireSqliteBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), "memory-mcp-examples-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const config = path.join(dir, "memory.toml");
    writeFileSync(
      config,
      '[memory]\nbackend = "sqlite"\ndata_dir = "."\nembedding_provider = "noop"\n',
    );
    return connect(stdioTransport([mainEntry, "--mcp", "--config", config]));
  },
  "streamable HTTP (/mcp, SQLite)": async () => {
    const backend = await openTestBackend();
    const server = await startTestServer({ memory: backend.memory });
    cleanups.push(() => backend.cleanup());
    return connect(httpTransport(server.url, TOKEN_ALL));
  },
};

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return { text: textOf(result), structured: result.structuredContent as Structured };
}

async function keysOf(client: Client, args: Record<string, unknown> = {}): Promise<string[]> {
  const { structured } = await call(client, "memory_list", { limit: 100, ...args });
  return (structured.entries as Structured[]).map((entry) => entry.key as string);
}

describe.each(Object.keys(channels))("tool description examples over %s", (channel) => {
  const open = channels[channel]!;

  it('memory_consolidate: "Never use spaces for indentation, always use tabs" replaces "Always use spaces for indentation"', async () => {
    expect(MEMORY_CONSOLIDATE_DESCRIPTION).toContain(
      '"Never use spaces for indentation, always use tabs" replaces "Always use spaces for indentation"',
    );
    const client = await open();
    const first = await call(client, "memory_consolidate", {
      message: "Always use spaces for indentation",
    });
    const oldKey = first.structured.promoted.key as string;
    const second = await call(client, "memory_consolidate", {
      message: "Never use spaces for indentation, always use tabs",
    });
    expect(second.structured.superseded).toEqual([oldKey]);
    expect(second.text).toContain(`It replaces the older memory ${oldKey}.`);
    const core = await keysOf(client, { categories: ["core"] });
    expect(core).toEqual([second.structured.promoted.key]);
  });

  it('memory_consolidate: "Always use tabs" after "The user prefers spaces" is kept beside it', async () => {
    expect(MEMORY_CONSOLIDATE_DESCRIPTION).toContain(
      '("Always use tabs" after "The user prefers spaces") is kept beside it, so forget the old one with memory_forget',
    );
    const client = await open();
    await call(client, "memory_store", { key: "user_indent", content: "The user prefers spaces" });
    const rule = await call(client, "memory_consolidate", { message: "Always use tabs" });
    expect(rule.structured.promoted).toMatchObject({ category: "core" });
    expect(rule.structured.superseded).toEqual([]);
    expect((await keysOf(client, { categories: ["core"] })).sort()).toEqual(
      [rule.structured.promoted.key, "user_indent"].sort(),
    );
    // What the description says to do about it.
    await call(client, "memory_forget", { key: "user_indent" });
    expect(await keysOf(client, { categories: ["core"] })).toEqual([rule.structured.promoted.key]);
  });

  it("memory_consolidate: chit-chat is only logged; automated lines are skipped", async () => {
    const client = await open();
    const chat = await call(client, "memory_consolidate", { message: "Thanks, that helps a lot" });
    expect(chat.structured.daily).toMatchObject({ category: "daily" });
    expect(chat.structured.promoted).toBeUndefined();
    expect(MEMORY_CONSOLIDATE_DESCRIPTION).toContain(
      'Chit-chat is only logged; automated lines (starting with "[cron:", "[heartbeat" or "[Memory context]") are skipped.',
    );
    for (const message of [
      "[cron:backup] nightly backup finished",
      "[heartbeat] all good",
      "[Memory context]\n- [core] user_editor: The user edits code in Neovim",
    ]) {
      const skipped = await call(client, "memory_consolidate", { message });
      expect(skipped.structured.skipped, message).toBe("filtered");
    }
    expect(await keysOf(client)).toHaveLength(1);

    // Each word the description names makes the message a core memory.
    const words = ["always", "never", "must", "important", "rule", "decision"];
    expect(MEMORY_CONSOLIDATE_DESCRIPTION).toContain(
      `(words such as ${words.map((word) => `"${word}"`).join(", ")})`,
    );
    for (const word of words) {
      const promoted = await call(client, "memory_consolidate", {
        message: `Release notes: ${word} for the ${word}-team`,
      });
      expect(promoted.structured.promoted, word).toMatchObject({ category: "core" });
    }
  });

  it("memory_store: without a key, the same text stored twice stays one memory; the same key replaces", async () => {
    expect(MEMORY_STORE_DESCRIPTION).toContain("the same text stored twice stays one memory");
    expect(MEMORY_STORE_DESCRIPTION).toContain('"user_preferred_editor"');
    const client = await open();
    const content = "The user prefers Neovim for editing code";
    const first = await call(client, "memory_store", { content });
    const second = await call(client, "memory_store", { content });
    expect(second.structured.entry.key).toBe(first.structured.entry.key);
    expect(await keysOf(client)).toEqual([first.structured.entry.key]);

    await call(client, "memory_store", { key: "user_preferred_editor", content: "Vim" });
    await call(client, "memory_store", { key: "user_preferred_editor", content: "Helix" });
    const got = await call(client, "memory_get", { key: "user_preferred_editor" });
    expect(got.text).toBe("[core] user_preferred_editor: Helix");
    expect(await keysOf(client)).toHaveLength(2);
  });

  it("memory_recall: best matches first with scores; an empty query returns the most recent", async () => {
    expect(MEMORY_RECALL_DESCRIPTION).toContain("An empty query returns the most recent memories.");
    const client = await open();
    await call(client, "memory_store", { key: "editor", content: "The user edits code in Neovim" });
    await call(client, "memory_store", { key: "coffee", content: "The user drinks black coffee" });
    const found = await call(client, "memory_recall", { query: "Neovim" });
    expect(found.structured.results[0]).toMatchObject({ key: "editor" });
    expect(found.structured.results[0].score).toBeGreaterThan(0);
    const recent = await call(client, "memory_recall", { query: "" });
    expect((recent.structured.results as Structured[]).map((entry) => entry.key)).toEqual([
      "coffee",
      "editor",
    ]);
  });

  it("memory_context: an empty message gets the core memories; nothing relevant gets an empty answer", async () => {
    expect(MEMORY_CONTEXT_DESCRIPTION).toContain(
      "an empty answer means nothing relevant is stored",
    );
    const client = await open();
    const empty = await call(client, "memory_context", { message: "" });
    expect(empty.text).toBe("No relevant memories.");
    await call(client, "memory_store", { key: "editor", content: "The user edits code in Neovim" });
    const start = await call(client, "memory_context", { message: "" });
    expect(start.text).toMatch(/^\[Memory context\]/);
    expect(start.text).toContain("The user edits code in Neovim");
  });
});
