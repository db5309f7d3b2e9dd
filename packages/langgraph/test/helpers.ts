import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory } from "@memory/api";
import { createMarkdownMemory } from "@memory/markdown";
import { createSqliteMemory } from "@memory/sqlite";
import { afterAll, afterEach } from "vitest";

const roots: string[] = [];
const open: Memory[] = [];

afterEach(async () => {
  for (const memory of open.splice(0)) await memory.close();
});
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fresh directory under the OS temp dir, removed after the test file. */
export function tempDir(): string {
  const root = mkdtempSync(join(tmpdir(), "memory-langgraph-"));
  roots.push(root);
  return root;
}

/** A real SQLite memory on a file (a new one unless `path` is given), closed after the test. */
export function sqliteMemory(path = join(tempDir(), "brain.db")): Memory {
  const memory = createSqliteMemory({ path });
  open.push(memory);
  return memory;
}

/** A real Markdown memory (MEMORY.md files in a fresh directory), closed after the test. */
export function markdownMemory(): Memory {
  const memory = createMarkdownMemory({ root: tempDir() });
  open.push(memory);
  return memory;
}

/** The backends the store is checked over: it uses only the public `Memory` interface. */
export const BACKENDS: [string, () => Memory][] = [
  ["a SQLite file", () => sqliteMemory()],
  ["Markdown files", markdownMemory],
];
