import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteMemory, type SqliteMemory } from "@memory/sqlite";
import { afterEach } from "vitest";

const opened: { memory: SqliteMemory; dir: string }[] = [];

/** A memory over a real SQLite file in a fresh temporary directory, closed after the test. */
export function sqliteMemory(): SqliteMemory {
  const dir = mkdtempSync(join(tmpdir(), "memory-tools-"));
  const memory = createSqliteMemory({ path: join(dir, "brain.db") });
  opened.push({ memory, dir });
  return memory;
}

afterEach(async () => {
  for (const { memory, dir } of opened.splice(0)) {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
