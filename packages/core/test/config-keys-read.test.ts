import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MEMORY_SETTING_KEYS } from "@memory/api";
import { describe, expect, it } from "vitest";

// Honest configuration: a [memory] key either does something (some source file other than the
// schema reads it) or is one of the keys below, which the schema accepts (so files written for
// them keep loading) and docs/configuration.md marks "planned". Making a planned key real means
// removing it here and updating its row in the docs; this test fails until both are done.
// Every key is read today: conflict_* by the backends' store (checkConflicts), auto_recall* by
// the memory context's configuration (memoryContextOptionsFromConfig).
const PLANNED: string[] = [];

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SCHEMA = "packages/api/src/config/config-schema.ts";

function sourceFiles(): string[] {
  const files: string[] = [];
  for (const parent of ["packages", "apps"]) {
    for (const dir of readdirSync(path.join(REPO, parent), { withFileTypes: true })) {
      if (!dir.isDirectory()) continue;
      const src = `${parent}/${dir.name}/src`;
      let names: string[];
      try {
        names = readdirSync(path.join(REPO, src), { recursive: true, encoding: "utf8" });
      } catch {
        continue;
      }
      for (const name of names) {
        if (name.endsWith(".ts") && !name.endsWith(".test.ts")) files.push(`${src}/${name}`);
      }
    }
  }
  return files.filter((file) => file !== SCHEMA);
}

/** Comments mention keys without reading them. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}

const CODE = sourceFiles()
  .map((file) => stripComments(readFileSync(path.join(REPO, file), "utf8")))
  .join("\n");
const isRead = (key: string) => new RegExp(`\\b${key}\\b`).test(CODE);

describe("every [memory] key does something", () => {
  it("is read by some source file other than the schema, unless it is planned", () => {
    const unread = MEMORY_SETTING_KEYS.filter((key) => !isRead(key));
    expect(unread.sort()).toEqual([...PLANNED].sort());
  });

  it("planned keys are still schema keys", () => {
    for (const key of PLANNED) expect(MEMORY_SETTING_KEYS).toContain(key);
  });

  it('docs/configuration.md says "planned" for exactly the planned keys', () => {
    const docs = readFileSync(path.join(REPO, "docs/configuration.md"), "utf8");
    const rows = new Map<string, string>();
    for (const line of docs.split("\n")) {
      // `| \`a\` / \`b\` | ...`: one row may document several keys.
      const cell = /^\| ([^|]+) \|/.exec(line)?.[1] ?? "";
      for (const match of cell.matchAll(/`([a-z_0-9]+)`/g)) rows.set(match[1]!, line);
    }
    for (const key of MEMORY_SETTING_KEYS) {
      const row = rows.get(key);
      expect(row, `docs/configuration.md has no row for ${key}`).toBeDefined();
      const planned = /not read by any code/.test(row ?? "");
      expect(
        planned,
        `${key}: "not read by any code" ${planned ? "but it is read" : "missing"}`,
      ).toBe(PLANNED.includes(key));
    }
  });
});
