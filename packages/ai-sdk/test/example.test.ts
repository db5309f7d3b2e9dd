import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

const PACKAGE = path.resolve(import.meta.dirname, "..");
const EXAMPLE = path.join(PACKAGE, "examples/chat-with-memory.mjs");
const PAGE = path.resolve(PACKAGE, "../../docs/frameworks/ai-sdk.md");
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("docs/frameworks/ai-sdk.md example", () => {
  beforeAll(() => {
    // The example imports the package by its name, as a user would: that is its built dist.
    if (!existsSync(path.join(PACKAGE, "dist/index.mjs")))
      throw new Error("Build first: pnpm exec turbo run build --filter @memory/ai-sdk...");
  });

  it("is on the page verbatim", () => {
    expect(readFileSync(PAGE, "utf8")).toContain(
      `\`\`\`js\n${readFileSync(EXAMPLE, "utf8")}\`\`\``,
    );
  });

  it("runs with node: the tool stores, the next conversation gets the context", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "memory-ai-sdk-example-"));
    dirs.push(cwd);
    const { stdout } = await promisify(execFile)(process.execPath, [EXAMPLE], { cwd });
    expect(stdout).toMatch(/^tool: Stored "mem-[0-9a-f]{16}" \(core\) in namespace "user-42"\.$/m);
    expect(stdout).toMatch(
      /model saw: \[Memory context\]\n- \[core \d{4}-\d{2}-\d{2}\] mem-aaeb25a129f949c9: The user's favourite language is Rust\n/,
    );
    expect(stdout).toContain("answer: Your favourite is Rust.\n");
    // The stored fact, plus the autosaved turn: the question and the start of the reply.
    expect(stdout).toContain("saved turns: 3\n");
    expect(existsSync(path.join(cwd, "chat-memory.db"))).toBe(true);
  });
});
