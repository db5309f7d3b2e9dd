import type { EmbeddingProvider, Memory } from "@memory/api";
import { loadConfig } from "@memory/core";
import { createInMemoryMemory, createTestEmbedder } from "@memory/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Logger, openMemory } from "../src/index.js";

const opened: Memory[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((memory) => memory.close()));
});

function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(message),
    warn: (message) => lines.push(message),
    error: (message) => lines.push(message),
  };
}

/** Fake packages: the backend is the in-memory reference, the provider is whatever the test says. */
function modules(provider: () => EmbeddingProvider) {
  const seen: { embedder?: EmbeddingProvider }[] = [];
  const loadModule = async (specifier: string) => {
    if (specifier === "@memory/embeddings") {
      return {
        resolveEmbeddingProvider: () => ({
          provider: provider(),
          reason: "configured local model",
        }),
      };
    }
    if (specifier === "@memory/sqlite") {
      return {
        createMemoryFromConfig: (_config: unknown, context: { embedder?: EmbeddingProvider }) => {
          seen.push(context);
          return createInMemoryMemory(context.embedder ? { embedder: context.embedder } : {});
        },
      };
    }
    throw Object.assign(new Error(`Cannot find package '${specifier}' imported from /test`), {
      code: "ERR_MODULE_NOT_FOUND",
    });
  };
  return { loadModule, seen };
}

const localConfig = () =>
  loadConfig({ env: {}, overrides: { embedding_provider: "local" } }).config;

describe("openMemory", () => {
  it("uses the embedder when its start-up probe answers", async () => {
    const { loadModule, seen } = modules(() => createTestEmbedder());
    const result = await openMemory(localConfig(), { loadModule, logger: recorder() });
    opened.push(result.memory);
    expect(result.embedding.mode).toBe("vector");
    expect(seen[0]?.embedder?.name).toBe("test");
    expect(result.memory.capabilities.vectorSearch).toBe(true);
  });

  it("starts keyword-only and says so loudly when the model fails to load", async () => {
    const { loadModule, seen } = modules(() => createTestEmbedder({ fail: true }));
    const logger = recorder();
    const result = await openMemory(localConfig(), { loadModule, logger });
    opened.push(result.memory);
    expect(result.embedding.mode).toBe("keyword-only");
    expect(seen[0]?.embedder).toBeUndefined();
    expect(logger.lines.join("\n")).toMatch(/KEYWORD-ONLY/);
    await result.memory.store({ key: "k", content: "still works with keywords" });
    expect((await result.memory.recall("keywords")).map((entry) => entry.key)).toEqual(["k"]);
  });

  it("starts keyword-only when the model does not answer in time", async () => {
    const hanging: EmbeddingProvider = {
      ...createTestEmbedder(),
      embedOne: () => new Promise(() => {}),
    };
    const { loadModule } = modules(() => hanging);
    const result = await openMemory(localConfig(), {
      loadModule,
      logger: recorder(),
      probeTimeoutMs: 50,
    });
    opened.push(result.memory);
    expect(result.embedding).toMatchObject({
      mode: "keyword-only",
      detail: expect.stringContaining("within 50 ms"),
    });
  });

  it("starts keyword-only when the embeddings package itself cannot load", async () => {
    const { loadModule: base } = modules(() => createTestEmbedder());
    const loadModule = async (specifier: string) => {
      if (specifier === "@memory/embeddings")
        throw new Error("Cannot find package '@tensorflow/tfjs-core'");
      return base(specifier);
    };
    const logger = recorder();
    const result = await openMemory(localConfig(), { loadModule, logger });
    opened.push(result.memory);
    expect(result.embedding.mode).toBe("keyword-only");
    expect(logger.lines.join("\n")).toContain("tfjs-core");
  });

  it("still fails on a configuration error (a backend that is not installed)", async () => {
    const { loadModule } = modules(() => createTestEmbedder());
    const config = loadConfig({ env: {}, overrides: { backend: "postgres" } }).config;
    await expect(openMemory(config, { loadModule, logger: recorder() })).rejects.toMatchObject({
      code: "CONFIG",
    });
  });
});

// Before: a [memory] key the backend ignores (markdown and defer_embedding) was silently dropped.
describe("openMemory: [memory] keys the backend does not honour", () => {
  it("warns through the logger about each one that is set, and only then", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dataDir = mkdtempSync(join(tmpdir(), "memory-ignored-"));
    const open = async (deferEmbedding: boolean) => {
      const logger = recorder();
      const config = loadConfig({
        env: {},
        overrides: { backend: "markdown", data_dir: dataDir, defer_embedding: deferEmbedding },
      }).config;
      const result = await openMemory(config, { logger });
      opened.push(result.memory);
      return logger.lines;
    };
    const set = await open(true);
    expect(set).toEqual([
      expect.stringMatching(
        /^\[memory\]\.defer_embedding = true has no effect with backend = "markdown": .*store always waits/,
      ),
    ]);
    expect(await open(false)).toEqual([]);
  });
});
