import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

const PACKAGE = path.resolve(import.meta.dirname, "..");
const EXAMPLE = path.join(PACKAGE, "examples/agent-with-memory.mjs");
const PAGE = path.resolve(PACKAGE, "../../docs/frameworks/openai-agents.md");
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("docs/frameworks/openai-agents.md example", () => {
  beforeAll(() => {
    // The example imports the package by its name, as a user would: that is its built dist.
    if (!existsSync(path.join(PACKAGE, "dist/index.mjs")))
      throw new Error("Build first: pnpm exec turbo run build --filter @memory/openai-agents...");
  });

  it("is on the page verbatim", () => {
    expect(readFileSync(PAGE, "utf8")).toContain(
      `\`\`\`js\n${readFileSync(EXAMPLE, "utf8")}\`\`\``,
    );
  });

  it("runs with node: the tool stores a fact, the session keeps and finds the conversation", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "memory-openai-agents-example-"));
    dirs.push(cwd);
    const { stdout } = await promisify(execFile)(process.execPath, [EXAMPLE], { cwd });
    expect(stdout).toBe(
      [
        "answer: Noted: you deploy on Fridays.",
        "history: message, function_call, function_call_result, message",
        "found: I deploy on Fridays.",
        "fact: The user deploys on Fridays",
        "",
      ].join("\n"),
    );
    expect(existsSync(path.join(cwd, "agent-memory.db"))).toBe(true);
  });
});
