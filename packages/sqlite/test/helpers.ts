import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

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
