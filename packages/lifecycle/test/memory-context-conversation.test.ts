import type { Memory } from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import {
  autosaveTurn,
  buildMemoryContext,
  consolidateTurn,
  type MemoryContext,
} from "../src/index.js";
import { realBackends } from "./real-backends.js";

const EDITOR = "I always edit code in Neovim.";
const STANDUP = "My standup meeting is always at 9am.";
const CHANGED = "I no longer use Neovim: I always edit code in VS Code now.";
const QUESTION = "Which editor do I use for code?";

/**
 * One turn of an agent loop as the README shows it: the memory context for the message, the
 * reply, then the turn autosaved (user message as `conversation`, reply as `daily`) and
 * consolidated (a daily entry, the message promoted to core when important, after the conflict
 * check).
 */
async function turn(memory: Memory, userMessage: string, assistantReply: string) {
  const context = await buildMemoryContext(memory, userMessage);
  await autosaveTurn(memory, { userMessage, assistantReply });
  await consolidateTurn(memory, { userMessage, assistantReply });
  return context;
}

function contents(context: MemoryContext): string[] {
  return context.entries.map((entry) => entry.content);
}

/** No entry of the block is the message itself (an autosaved or consolidated copy of it). */
function expectNoEcho(context: MemoryContext, message: string) {
  for (const entry of context.entries) {
    expect(entry.category, entry.content).not.toBe("conversation");
    expect(entry.content, "the message came back as its own memory").not.toContain(message);
  }
}

describe.each(realBackends())(
  "the memory context in a scripted conversation on %s",
  (_name, open) => {
    it("answers with the current fact, never the stale one or the question itself", async () => {
      const memory = open({ embedder: createTestEmbedder({ dimensions: 256 }) });
      await turn(memory, EDITOR, "Noted.");
      await turn(memory, STANDUP, "Got it.");

      const first = await turn(memory, QUESTION, "You edit code in Neovim.");
      expect(contents(first)).toContain(EDITOR);
      expect(first.text).toContain(EDITOR);
      expectNoEcho(first, QUESTION);

      // Asked again: the autosaved question and the consolidated turn are in memory now, and
      // must not come back as the "memory" for the same question.
      const again = await turn(memory, QUESTION, "Still Neovim.");
      expect(contents(again)[0]).toBe(EDITOR);
      expectNoEcho(again, QUESTION);

      await turn(memory, CHANGED, "Updated.");
      const after = await turn(memory, QUESTION, "VS Code.");
      expect(after.text).toContain(CHANGED);
      expect(after.text).not.toContain(EDITOR);
      expect(after.text).not.toContain("You edit code in Neovim");
      expectNoEcho(after, QUESTION);
      // The old fact is kept for audit, superseded by the new one.
      const core = await memory.list({ categories: ["core"], includeSuperseded: true });
      const old = core.find((entry) => entry.content === EDITOR);
      expect(old?.supersededBy).toBe(core.find((entry) => entry.content === CHANGED)?.key);

      const standup = await buildMemoryContext(memory, "When is my standup meeting?");
      expect(standup.text).toContain(STANDUP);
      expect(standup.text).not.toContain(CHANGED);

      // Nonsense gets nothing, not the most recent or the most important entries.
      const nonsense = await buildMemoryContext(memory, "qwzx blorf vlimmet?");
      expect(nonsense).toEqual({ text: "", entries: [], truncated: false });
      expect(after.text.length).toBeLessThanOrEqual(2000);
    });

    it("lets what the user said in by default, never their questions, and out on request", async () => {
      const memory = open();
      await autosaveTurn(
        memory,
        { userMessage: "The deploy key is kept in the vault under ops/deploy" },
        { promote: false },
      );
      await autosaveTurn(memory, { userMessage: "Where is the vault key for staging kept?" });
      const context = await buildMemoryContext(memory, "where is the deploy key?");
      expect(context.entries.map((entry) => entry.category)).toEqual(["conversation"]);
      expect(context.text).toContain("ops/deploy");
      expect(context.text).not.toContain("staging");
      const without = await buildMemoryContext(memory, "where is the deploy key?", {
        includeConversation: false,
      });
      expect(without.entries).toEqual([]);
    });

    it("lists near-identical entries once and stays within maxChars", async () => {
      const memory = open();
      await memory.store({ key: "a", content: "The user edits code in Neovim", category: "core" });
      await memory.store({ key: "b", content: "The user edits code in Neovim.", category: "core" });
      await memory.store({
        key: "c",
        content: "User: The user edits code in Neovim\nAssistant: ok",
        category: "daily",
      });
      for (let i = 0; i < 10; i++)
        await memory.store({
          key: `long-${i}`,
          content: `Neovim plugin ${i} ${"configuration detail ".repeat(20)}`,
          category: "core",
        });
      const context = await buildMemoryContext(memory, "neovim code editor plugin", {
        limit: 10,
        minScore: 0,
        maxChars: 600,
      });
      const copies = context.entries.filter((entry) => /edits code in Neovim/.test(entry.content));
      expect(copies).toHaveLength(1);
      expect(context.text.length).toBeLessThanOrEqual(600);
      expect(context.truncated).toBe(true);
    });

    it("recalls nothing with recall: false (auto_recall = false)", async () => {
      const memory = open();
      await memory.store({ key: "a", content: "The user edits code in Neovim", category: "core" });
      const context = await buildMemoryContext(memory, "which editor?", { recall: false });
      expect(context.entries).toEqual([]);
    });
  },
);
