import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "./helpers/run-memory.js";

const TRACE_HOOK = fileURLToPath(new URL("./helpers/register-import-trace.mjs", import.meta.url));

// Modules that cost real start-up time and that neither `get` nor `--version` needs.
const HEAVY = [
  "@tensorflow",
  "onnxruntime",
  "@memory/embeddings",
  "@memory/server",
  "@memory/lifecycle",
  "hono",
  "@modelcontextprotocol",
  "cli-progress",
  "openai",
  "@google/genai",
];

describe("fast start: what each command imports", () => {
  let ws: Workspace;
  beforeAll(async () => {
    // Configured with the local model, which get must still not load.
    ws = new Workspace("", 'embedding_provider = "local"');
    await ws.run(["store", "hello", "--key", "k"], { env: { MEMORY_EMBEDDING_PROVIDER: "noop" } });
  });
  afterAll(() => ws.remove());

  async function imported(args: string[]): Promise<string[]> {
    const trace = ws.file(`trace-${args.join("-")}.txt`);
    const result = await ws.run(args, {
      nodeArgs: ["--import", TRACE_HOOK],
      env: { IMPORT_TRACE_FILE: trace },
    });
    expect(result.code, result.stderr).toBe(0);
    return readFileSync(trace, "utf8").trim().split("\n");
  }

  it("memory --version imports nothing but its own entry chunk", async () => {
    const urls = (await imported(["--version"])).filter((url) => !url.startsWith("node:"));
    expect(urls.every((url) => url.includes("/apps/cli/dist/"))).toBe(true);
    expect(urls.some((url) => url.includes("commander") || url.includes("@memory/api"))).toBe(
      false,
    );
  });

  it("memory get loads the backend but no embedding provider, model or server", async () => {
    const urls = await imported(["get", "k"]);
    expect(urls.some((url) => url.includes("/packages/sqlite/"))).toBe(true);
    for (const name of HEAVY) expect(urls.filter((url) => url.includes(name))).toEqual([]);
  });

  it("memory recall resolves the provider but does not load other commands", async () => {
    const urls = await imported(["recall", "hello", "--mode", "bm25"]);
    expect(urls.some((url) => url.includes("/packages/embeddings/"))).toBe(true);
    // bm25 needs no query embedding, so the model stays unloaded.
    for (const name of [
      "@tensorflow",
      "@memory/server",
      "cli-progress",
      "/dist/import-",
      "/dist/migrate-",
    ]) {
      expect(urls.filter((url) => url.includes(name))).toEqual([]);
    }
  });

  it("memory context loads the server's context operation, not its HTTP or MCP stack", async () => {
    const urls = await imported(["context", "hello"]);
    expect(urls.some((url) => url.includes("/apps/server/dist/context.mjs"))).toBe(true);
    // It recalls with the configured (local) model, as the server would: only the stack is spared.
    for (const name of ["hono", "@modelcontextprotocol", "cli-progress", "/dist/serve-"]) {
      expect(urls.filter((url) => url.includes(name))).toEqual([]);
    }
  });
});
