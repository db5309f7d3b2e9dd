import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DocSnippet,
  docSnippets,
  missingLines,
  REPO,
  requireBuilt,
  run,
  type ShellResult,
  userEnv,
} from "./helpers/markdown-snippets.js";

// docs/getting-started.md, run for real: every block tagged `doc-test=<kind>` is executed the
// way a reader would, and the `doc-test=output` block after it must appear in what it prints.
const GUIDE = path.join(REPO, "docs/getting-started.md");
const snippets = docSnippets(readFileSync(GUIDE, "utf8"));
const ofKind = (kind: string) => snippets.filter((snippet) => snippet.kind === kind);

function expectOutput(snippet: DocSnippet, result: ShellResult): void {
  const where = `docs/getting-started.md:${snippet.line}`;
  expect(result.code, `${where} exited ${result.code}\n${result.stdout}\n${result.stderr}`).toBe(0);
  if (snippet.expectedOutput !== undefined) {
    expect(
      missingLines(snippet.expectedOutput, result.stdout),
      `${where}: lines missing from the output:\n${result.stdout}\n${result.stderr}`,
    ).toEqual([]);
  }
}

/** The configuration `npm start` writes on first run, read out of scripts/start.sh. */
function firstRunConfig(): string {
  const script = readFileSync(path.join(REPO, "scripts/start.sh"), "utf8");
  const toml = /<<'TOML'\n([\s\S]*?)\nTOML\n/.exec(script)?.[1];
  if (!toml) throw new Error("scripts/start.sh no longer writes a first-run memory.toml");
  return toml;
}

describe("docs/getting-started.md", () => {
  let home: string;
  beforeAll(() => {
    // Fail, never skip, when something the guide relies on is not built.
    requireBuilt(
      "apps/cli/dist/memory.mjs",
      "apps/server/dist/main.mjs",
      "packages/api/dist/index.mjs",
      "packages/sqlite/dist/index.mjs",
      "packages/embeddings/dist/local.mjs",
    );
    home = mkdtempSync(path.join(tmpdir(), "memory-getting-started-"));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("tags the snippets of every door", () => {
    expect(ofKind("http")).toHaveLength(1);
    expect(ofKind("cli")).toHaveLength(1);
    expect(ofKind("library").map((snippet) => snippet.attributes.file ?? "setup")).toEqual([
      "setup",
      "first.mjs",
      "meaning.mjs",
      "first.ts",
      "agent-loop.mjs",
    ]);
  });

  it("curl: stores and recalls through a server started by `npm start -- --port`", async () => {
    const config = path.join(home, "server", "memory.toml");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(path.dirname(config), { recursive: true });
    writeFileSync(config, firstRunConfig());
    const server: ChildProcess = spawn(
      "bash",
      ["scripts/start.sh", "--port", "0", "--host", "127.0.0.1", "--config", config],
      {
        cwd: REPO,
        env: userEnv(home, { MEMORY_START_SKIP_SETUP: "1" }),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    server.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: server.stdout! });
        lines.on("line", (line) => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (match) resolve(match[1]!);
        });
        server.once("exit", (code) => reject(new Error(`the server exited ${code}:\n${stderr}`)));
      });
      for (const snippet of ofKind("http")) {
        const code = snippet.code.replaceAll("http://127.0.0.1:8787", url);
        expect(code, "the snippet talks to the documented default port").not.toBe(snippet.code);
        expectOutput(
          snippet,
          await run("bash", ["-e", "-c", code], { cwd: home, env: userEnv(home) }),
        );
      }
    } finally {
      server.kill("SIGTERM");
    }
    await once(server, "close");
  });

  it("CLI: `npm run link-cli` puts memory on the PATH and the commands print what the guide shows", async () => {
    const bin = path.join(home, ".local", "bin");
    const linked = await run("bash", ["scripts/link-cli.sh", bin], {
      cwd: REPO,
      env: userEnv(home),
    });
    expect(linked.code, linked.stderr).toBe(0);
    const env = userEnv(home, { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
    for (const snippet of ofKind("cli")) {
      expectOutput(snippet, await run("bash", ["-e", "-c", snippet.code], { cwd: home, env }));
    }
  });

  it("library: links the packages into a new project and runs the .mjs and .ts files", async () => {
    const [setup, ...files] = ofKind("library");
    const env = userEnv(home);
    expectOutput(setup!, await run("bash", ["-e", "-c", setup!.code], { cwd: REPO, env }));
    const app = path.join(home, "memory-app");
    for (const snippet of files) {
      const file = snippet.attributes.file!;
      writeFileSync(path.join(app, file), snippet.code);
      if (file.endsWith(".mjs")) {
        expectOutput(snippet, await run(process.execPath, [file], { cwd: app, env }));
        continue;
      }
      // TypeScript: type-checked (strict, NodeNext) with the repository's tsc, then run with its
      // tsx, the tool the guide tells the reader to install.
      writeFileSync(
        path.join(app, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            lib: ["ES2022", "ESNext.Disposable"],
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          files: [file],
        }),
      );
      const typecheck = await run(path.join(REPO, "node_modules/.bin/tsc"), ["-p", "."], {
        cwd: app,
        env,
      });
      expect(typecheck.code, `${file} does not type-check:\n${typecheck.stdout}`).toBe(0);
      expectOutput(
        snippet,
        await run(path.join(REPO, "node_modules/.bin/tsx"), [file], { cwd: app, env }),
      );
    }
  });
});
