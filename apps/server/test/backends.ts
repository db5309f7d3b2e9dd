import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Memory } from "@memory/api";
import { createInMemoryMemory } from "@memory/testkit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** True once packages/sqlite is built (it is developed in parallel). */
export const sqliteBuilt = existsSync(
  path.join(root, "node_modules/@memory/sqlite/dist/index.mjs"),
);

/** A SQLite memory in a temporary directory when the backend is built, else the in-memory reference. */
export async function openTestBackend(): Promise<{
  memory: Memory;
  kind: string;
  cleanup(): Promise<void>;
}> {
  if (!sqliteBuilt) {
    const memory = createInMemoryMemory();
    return { memory, kind: "in-memory", cleanup: () => memory.close() };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "memory-server-"));
  const { createSqliteMemory } = (await import("@memory/sqlite")) as {
    createSqliteMemory(options: { path: string }): Memory;
  };
  const memory = createSqliteMemory({ path: path.join(dir, "brain.db") });
  return {
    memory,
    kind: "sqlite",
    async cleanup() {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
