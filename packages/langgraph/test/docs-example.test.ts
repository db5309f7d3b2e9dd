import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { sqliteMemory, tempDir } from "./helpers.js";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const EXAMPLE = join(PACKAGE, "examples", "remember-graph.ts");
const PAGE = resolve(PACKAGE, "../../docs/frameworks/langgraph.md");

describe("docs/frameworks/langgraph.md", () => {
  beforeAll(() => {
    // The example imports the packages by name, as a user would: fail (never skip) unbuilt.
    for (const built of [
      join(PACKAGE, "dist/index.mjs"),
      resolve(PACKAGE, "../sqlite/dist/index.mjs"),
    ]) {
      if (!existsSync(built)) {
        throw new Error(
          `${built} is missing: run pnpm exec turbo run build --filter @memory/langgraph...`,
        );
      }
    }
  });

  it("shows the example file exactly, so the page cannot drift from what runs", () => {
    const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(PAGE, "utf8"))?.[1];
    expect(block).toBe(readFileSync(EXAMPLE, "utf8"));
  });

  it("runs the example in its own process: it prints the recalled fact and leaves it in the file", async () => {
    const path = join(tempDir(), "brain.db");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", EXAMPLE, path],
      { cwd: PACKAGE, timeout: 120_000 },
    );
    expect(stdout).toBe("allergy: Ada is allergic to peanuts\n");
    const stored = await sqliteMemory(path).list({ namespace: "users.ada.facts" });
    expect(stored.map((entry) => entry.key).sort()).toEqual(["allergy", "city"]);
  });
});
