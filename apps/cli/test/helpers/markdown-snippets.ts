import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root directory. */
export const REPO = fileURLToPath(new URL("../../../../", import.meta.url));

/** A fenced code block of a Markdown file. */
export interface FencedBlock {
  /** The first word of the info string (`sh`, `js`, `toml`...), "" when there is none. */
  lang: string;
  /** `name=value` words of the info string after the language (`doc-test=cli file=a.mjs`). */
  attributes: Record<string, string>;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** A block tagged `doc-test=<kind>`, with the `doc-test=output` block that follows it, if any. */
export interface DocSnippet extends FencedBlock {
  kind: string;
  expectedOutput?: string;
}

export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const open = /^(```+|~~~+)\s*(.*)$/.exec(lines[index]!);
    if (!open) continue;
    const [lang = "", ...words] = open[2]!.trim().split(/\s+/);
    const attributes: Record<string, string> = {};
    for (const word of words) {
      const [name, value = ""] = word.split("=", 2);
      attributes[name!] = value;
    }
    const body: string[] = [];
    const start = index;
    for (index++; index < lines.length && !lines[index]!.startsWith(open[1]!); index++) {
      body.push(lines[index]!);
    }
    blocks.push({ lang, attributes, code: `${body.join("\n")}\n`, line: start + 1 });
  }
  return blocks;
}

/** The runnable snippets of a Markdown file, each with its expected output. */
export function docSnippets(markdown: string): DocSnippet[] {
  const snippets: DocSnippet[] = [];
  for (const block of fencedBlocks(markdown)) {
    const kind = block.attributes["doc-test"];
    if (kind === undefined) continue;
    if (kind === "output") {
      const last = snippets.at(-1);
      if (!last || last.expectedOutput !== undefined) {
        throw new Error(`line ${block.line}: a doc-test=output block follows no runnable snippet`);
      }
      last.expectedOutput = block.code;
    } else {
      snippets.push({ ...block, kind });
    }
  }
  return snippets;
}

/**
 * Lines of `expected` missing from `actual`. Each expected line must equal a whole line of the
 * output, where `…` stands for any text (ids, times, the digits of a score).
 */
export function missingLines(expected: string, actual: string): string[] {
  const outputLines = actual.split("\n").map((line) => line.trimEnd());
  return expected
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => {
      const pattern = new RegExp(
        `^${line
          .trimEnd()
          .split("…")
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*")}$`,
      );
      return !outputLines.some((candidate) => pattern.test(candidate));
    });
}

/** Fails, naming what to build, when a build output the docs rely on is missing. */
export function requireBuilt(...files: string[]): void {
  const missing = files.filter((file) => !existsSync(path.join(REPO, file)));
  if (missing.length > 0) {
    throw new Error(
      `missing build output: ${missing.join(", ")}; build first (\`pnpm exec turbo run build\`).`,
    );
  }
}

export interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A user's environment: no MEMORY_* settings and no npm/pnpm script variables from the test
 * runner, HOME in a temporary directory.
 */
export function userEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(MEMORY_|npm_|PNPM_|INIT_CWD$|NO_COLOR$|FORCE_COLOR$)/.test(name)) env[name] = value;
  }
  return { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), ...extra };
}

/** Runs a program to completion and collects its output. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}
