import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { MemoryError } from "@memory/api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createNoopEmbeddings, resolveEmbeddingProvider } from "../src/index.js";
import { writeTinyBert } from "./support/tiny-bert.js";

const KEYS = [
  "OPENAI_API_KEY",
  "OPENROUTER_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "VOYAGE_API_KEY",
];
const saved = new Map(KEYS.map((key) => [key, process.env[key]]));
afterEach(() => {
  for (const key of KEYS) delete process.env[key];
});
afterAll(() => {
  for (const [key, value] of saved) if (value !== undefined) process.env[key] = value;
});
beforeAll(() => {
  for (const key of KEYS) delete process.env[key];
});

describe("noop provider", () => {
  it("has 0 dimensions, the noop:none:0 fingerprint and one empty vector per text", async () => {
    const noop = createNoopEmbeddings();
    expect(noop.dimensions).toBe(0);
    expect(noop.fingerprint).toBe("noop:none:0");
    expect(await noop.embed(["a", "b"])).toEqual([[], []]);
    expect(await noop.embedOne("a")).toEqual([]);
  });
});

describe("resolveEmbeddingProvider", () => {
  it("falls back to noop with a reason when nothing is configured or available", () => {
    const { provider, reason } = resolveEmbeddingProvider({});
    expect(provider.fingerprint).toBe("noop:none:0");
    expect(reason).toMatch(/^noop: .*keyword-only/);
    expect(reason).not.toContain("\n");
  });

  it("picks local when configured and its packages are installed", () => {
    const { provider, reason } = resolveEmbeddingProvider({ embedding_provider: "local" });
    expect(provider.fingerprint).toBe("local:use-lite:512");
    expect(reason).toMatch(/^local: /);
  });

  it("picks onnx for a model directory with model.onnx and tokenizer.json", async () => {
    const dir = await writeTinyBert({ tokenTypes: true, int8: false });
    const { provider, reason } = resolveEmbeddingProvider({
      embedding_provider: "onnx",
      embedding_model_dir: dir,
      embedding_model: "tiny",
      embedding_dims: 4,
    });
    expect(provider.fingerprint).toBe("onnx:tiny:4");
    expect(reason).toContain(dir);
    expect(await provider.embedOne("hello")).toHaveLength(4);
    await rm(dir, { recursive: true, force: true });
  });

  it("falls back from an unusable onnx directory to a remote provider with a key", () => {
    process.env.VOYAGE_API_KEY = "v";
    const { provider, reason } = resolveEmbeddingProvider({
      embedding_provider: "onnx",
      embedding_model_dir: "/nonexistent",
    });
    expect(provider.name).toBe("voyage");
    expect(reason).toContain("onnx unavailable");
    expect(reason).toContain("VOYAGE_API_KEY");
  });

  it("uses the configured remote provider, model and dims when its key is set", () => {
    process.env.OPENAI_API_KEY = "k";
    const { provider } = resolveEmbeddingProvider({
      embedding_provider: "openai",
      embedding_model: "text-embedding-3-large",
      embedding_dims: 1024,
    });
    expect(provider.fingerprint).toBe("openai:text-embedding-3-large:1024");
  });

  it("reports a configured remote provider without a key and falls back to noop", () => {
    const { provider, reason } = resolveEmbeddingProvider({ embedding_provider: "gemini" });
    expect(provider.name).toBe("noop");
    expect(reason).toContain("GEMINI_API_KEY");
  });

  it("accepts custom:<base-url> without a key", () => {
    const { provider } = resolveEmbeddingProvider({
      embedding_provider: "custom:http://localhost:11434/v1",
      embedding_model: "nomic-embed-text",
      embedding_dims: 768,
    });
    expect(provider.fingerprint).toBe("custom:nomic-embed-text:768");
  });

  it("rejects a misspelt provider instead of silently degrading", () => {
    let error: unknown;
    try {
      resolveEmbeddingProvider({ embedding_provider: "opnai" });
    } catch (caught) {
      error = caught;
    }
    expect(MemoryError.hasCode(error, "CONFIG")).toBe(true);
    expect((error as Error).message).toContain("opnai");
  });
});

describe("package layout", () => {
  it("never imports heavy SDKs statically, only with import()", async () => {
    const heavy =
      /^import\s+(?!type\b)[^;]*from\s+"(openai|@google\/genai|voyageai|onnxruntime-node|@tensorflow[^"]*|@energetic-ai[^"]*)"/m;
    const root = path.join(import.meta.dirname, "..", "src");
    const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const source = await readFile(path.join(root, file), "utf8");
      expect(heavy.test(source), file).toBe(false);
    }
  });
});
