import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Memory } from "@memory/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The server's own build, run as a child process by some tests (global-setup builds it). */
export const mainEntry = path.join(root, "dist/main.mjs");
const sqliteDist = path.join(root, "node_modules/@memory/sqlite/dist/index.mjs");

/**
 * Fails the calling test, saying what to build, when a build output it needs is missing. Tests
 * never skip or fall back to another backend on a missing build: CI would pass without testing
 * what users run.
 */
export function requireBuilt(file: string, build: string): void {
  if (!existsSync(file)) throw new Error(`${file} is missing: build it first (${build}).`);
}

/** @memory/sqlite's dist/, which `turbo run test` builds first as a dependency of this package. */
export function requireSqliteBuilt(): void {
  requireBuilt(sqliteDist, "`pnpm exec turbo run build --filter @memory/sqlite`");
}

/** The built server (`dist/main.mjs`), normally built by test/global-setup.ts. */
export function requireServerBuilt(): void {
  requireBuilt(
    mainEntry,
    "`pnpm exec turbo run build --filter @memory/server`, or `npx tsdown` in apps/server",
  );
}

/** A SQLite memory in a temporary directory; fails when @memory/sqlite is not built. */
export async function openTestBackend(): Promise<{
  memory: Memory;
  kind: string;
  cleanup(): Promise<void>;
}> {
  requireSqliteBuilt();
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
