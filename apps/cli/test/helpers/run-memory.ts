import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The built binary: the tests exercise exactly what users run. */
export const BIN = fileURLToPath(new URL("../../dist/memory.mjs", import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  input?: string;
  env?: Record<string, string | undefined>;
  /** Extra arguments for node itself (before the script). */
  nodeArgs?: readonly string[];
}

// The tests' own environment must not leak into the CLI: no MEMORY_* overrides, no user config.
export function cleanEnv(
  home: string,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("MEMORY_") && name !== "NO_COLOR" && name !== "FORCE_COLOR")
      env[name] = value;
  }
  env.XDG_CONFIG_HOME = path.join(home, "xdg");
  env.HOME = home;
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * Fails, saying what to build, when dist/memory.mjs is missing (`turbo run test` builds only
 * this package's dependencies), instead of a confusing "Cannot find module" from the child.
 */
export function requireBuiltCli(): void {
  if (!existsSync(BIN)) {
    throw new Error(
      `${BIN} is missing: build the CLI first (\`pnpm exec turbo run build --filter @memory/cli\`, or \`npx tsdown\` in apps/cli).`,
    );
  }
}

/** Runs `node dist/memory.mjs ...args` and collects its output. */
export function runMemory(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  requireBuiltCli();
  const cwd = options.cwd ?? process.cwd();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      cwd,
      env: cleanEnv(cwd, options.env),
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

/** Parses stdout as one JSON document, failing with the output when it is not. */
export function json<T = Record<string, unknown>>(result: RunResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(
      `stdout is not one JSON document (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`,
    );
  }
}

/** A temporary directory with a memory.toml for a SQLite file and the noop embedder. */
export class Workspace {
  readonly dir: string;

  constructor(extraToml = "", memoryToml = 'embedding_provider = "noop"') {
    this.dir = mkdtempSync(path.join(tmpdir(), "memory-cli-"));
    this.writeConfig(
      "memory.toml",
      `[memory]\n${memoryToml}\n\n[sqlite]\npath = "brain.db"\n${extraToml}`,
    );
  }

  file(name: string): string {
    return path.join(this.dir, name);
  }

  writeConfig(name: string, text: string): string {
    writeFileSync(this.file(name), text);
    return this.file(name);
  }

  run(args: readonly string[], options: Omit<RunOptions, "cwd"> = {}): Promise<RunResult> {
    return runMemory(args, { ...options, cwd: this.dir });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
