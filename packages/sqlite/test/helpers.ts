import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { StatementCache } from "../src/statement-cache.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fresh directory under the OS temp dir, removed after the test file. */
export function tempDir(): string {
  const root = mkdtempSync(join(tmpdir(), "memory-sqlite-"));
  roots.push(root);
  return root;
}

/** A fresh database path (the file does not exist yet). */
export function tempDbPath(): string {
  return join(tempDir(), "brain.db");
}

/**
 * The real statement cache with the statements `counted` picks counted as they are prepared or
 * fetched from the cache (its methods are bound: private fields).
 */
export function countingStatements(
  statements: StatementCache,
  counted: (sql: string) => boolean,
): { cache: StatementCache; count: () => number } {
  let count = 0;
  const cache = {
    db: statements.db,
    get: (sql: string) => {
      if (counted(sql)) count++;
      return statements.get(sql);
    },
    snapshot: <T>(read: () => T) => statements.snapshot(read),
    writeVersion: () => statements.writeVersion(),
    dataVersion: () => statements.dataVersion(),
    get inCallersTransaction() {
      return statements.inCallersTransaction;
    },
  } as unknown as StatementCache;
  return { cache, count: () => count };
}
