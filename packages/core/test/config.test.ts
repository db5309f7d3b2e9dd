import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ConfigError,
  MEMORY_SETTING_KEYS,
  type Memory,
  type MemoryConfig,
  type MemoryError,
} from "@memory/api";
import { describe, expect, it } from "vitest";
import { createMemory, defaultConfig, loadConfig, NoneMemory } from "../src/index.js";

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as MemoryError).code).toBe("CONFIG");
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

async function configErrorAsync(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("fills defaults for an empty configuration", () => {
    const { config, sources } = loadConfig({ env: {} });
    expect(config.memory).toMatchObject({
      backend: "sqlite",
      search_mode: "hybrid",
      merge_strategy: "weighted",
      rrf_k: 60,
      vector_weight: 0.3,
      keyword_weight: 0.7,
      fts_early_return_score: 1,
      min_score: 0.3,
      candidate_multiplier: 2,
      half_life_days: 7,
      recall_cache_size: 256,
      recall_cache_ttl_seconds: 300,
      conflict_threshold: 0.7,
      embedding_provider: "noop",
      embedding_cache_max: 10_000,
      hygiene_interval_hours: 12,
      defer_embedding: false,
    });
    expect(Object.values(sources).every((s) => s === "default")).toBe(true);
    expect(defaultConfig()).toEqual(config);
  });

  it("reads the [memory] table from TOML text and fills the rest", () => {
    const { config, sources } = loadConfig({
      env: {},
      text: '[memory]\nbackend = "postgres"\nmerge_strategy = "weighted"\nconflict_threshold = 0.7\n',
    });
    expect(config.memory.backend).toBe("postgres");
    expect(config.memory.merge_strategy).toBe("weighted");
    expect(config.memory.conflict_threshold).toBe(0.7);
    expect(config.memory.search_mode).toBe("hybrid");
    expect(sources.backend).toBe("file");
    expect(sources.search_mode).toBe("default");
  });

  it("reads a file and records its path", () => {
    const dir = mkdtempSync(join(tmpdir(), "memory-config-"));
    const file = join(dir, "memory.toml");
    writeFileSync(file, '[memory]\nsearch_mode = "bm25"\n');
    const loaded = loadConfig({ file, env: {} });
    expect(loaded.config.memory.search_mode).toBe("bm25");
    expect(loaded.file).toBe(file);
  });

  it("reports a missing file as a ConfigError naming it", () => {
    const error = configError(() => loadConfig({ file: "/nonexistent/memory.toml", env: {} }));
    expect(error.message).toMatch(/\/nonexistent\/memory\.toml/);
    expect(error.cause).toBeDefined();
  });

  it("passes other tables through untouched", () => {
    const { config } = loadConfig({
      env: {},
      text: '[memory]\nbackend = "sqlite"\n\n[sqlite]\npath = "brain.db"\nfallback_to_none = true\n\n[server]\nport = 8080\n',
    });
    expect(config.sqlite).toEqual({ path: "brain.db", fallback_to_none: true });
    expect(config.server).toEqual({ port: 8080 });
  });

  // Before: every table but [memory] was passed through, so `[sqlite] pth = ...` silently
  // opened the default database and `[sqllite]` was kept without a word.
  it.each([
    ["sqlite", "pth", "[sqlite].path"],
    ["postgres", "ulr", "[postgres].url"],
    ["markdown", "wach", "[markdown].watch"],
    ["lucid", "comand", "[lucid].command"],
    ["server", "prot", "[server].port"],
  ])(
    "rejects an unknown key of [%s] with its file:line and the closest key",
    (table, key, closest) => {
      const dir = mkdtempSync(join(tmpdir(), "memory-config-"));
      const file = join(dir, "memory.toml");
      writeFileSync(file, `[memory]\nbackend = "sqlite"\n\n[${table}]\n${key} = 1\n`);
      const error = configError(() => loadConfig({ file, env: {} }));
      expect(error.code).toBe("CONFIG");
      expect(error.message).toContain(
        `unknown key [${table}].${key} (${file}:5): did you mean ${closest}?`,
      );
    },
  );

  it("rejects an unknown table with its line and the closest table", () => {
    const error = configError(() =>
      loadConfig({ env: {}, text: '[memory]\nbackend = "sqlite"\n\n[sqllite]\npath = "x.db"\n' }),
    );
    expect(error.code).toBe("CONFIG");
    expect(error.message).toContain("unknown table [sqllite] (line 4): did you mean [sqlite]?");
    const far = configError(() => loadConfig({ env: {}, text: "[colours]\nred = 1\n" }));
    expect(far.message).toContain(
      "unknown table [colours] (line 1): the known tables are [memory]",
    );
  });

  it("reports the problems of [memory] and of the other tables together", () => {
    const error = configError(() =>
      loadConfig({ env: {}, text: '[memory]\nserch_mode = "bm25"\n[sqlite]\npth = "x.db"\n' }),
    );
    expect(error.details?.problems).toEqual([
      "unknown key [memory].serch_mode (line 2): did you mean [memory].search_mode?",
      "unknown key [sqlite].pth (line 4): did you mean [sqlite].path?",
    ]);
  });

  it("says a [memory] key written above every table belongs under [memory]", () => {
    const error = configError(() =>
      loadConfig({ env: {}, text: 'search_mode = "bm25"\n[memory]\nbackend = "sqlite"\n' }),
    );
    expect(error.message).toContain(
      "key search_mode (line 1) is outside every table: move it under [memory]",
    );
  });

  it("rejects an unknown key, naming its line and the closest key", () => {
    const error = configError(() =>
      loadConfig({ env: {}, text: '[memory]\nserch_mode = "bm25"\n' }),
    );
    expect(error.message).toContain(
      "unknown key [memory].serch_mode (line 2): did you mean [memory].search_mode?",
    );
    expect(error.details?.allowedKeys).toEqual([...MEMORY_SETTING_KEYS]);
  });

  it("rejects a bad enum value, naming [memory].search_mode and the allowed values", () => {
    const error = configError(() =>
      loadConfig({ env: {}, text: '[memory]\nsearch_mode = "fuzzy"\n' }),
    );
    expect(error.message).toContain("[memory].search_mode");
    for (const value of ["hybrid", "bm25", "embedding"]) expect(error.message).toContain(value);
    expect(error.details).toMatchObject({
      problems: [expect.stringContaining("[memory].search_mode")],
    });
  });

  it("rejects values of the wrong type or range", () => {
    expect(
      configError(() => loadConfig({ env: {}, text: "[memory]\nrrf_k = -1\n" })).message,
    ).toContain("[memory].rrf_k");
    expect(
      configError(() => loadConfig({ env: {}, text: '[memory]\nembedding_provider = "openia"\n' }))
        .message,
    ).toMatch(/\[memory\]\.embedding_provider.*openai/);
  });

  it("accepts custom:<url> embedding providers", () => {
    const { config } = loadConfig({
      env: {},
      text: '[memory]\nembedding_provider = "custom:http://localhost:11434/v1"\n',
    });
    expect(config.memory.embedding_provider).toBe("custom:http://localhost:11434/v1");
  });

  it("reports invalid TOML as a ConfigError with the parser error as cause", () => {
    const error = configError(() => loadConfig({ env: {}, text: "[memory\nbackend = " }));
    expect(error.message).toMatch(/is not valid TOML/);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("rejects `memory` that is not a table", () => {
    expect(configError(() => loadConfig({ env: {}, text: "memory = 5\n" })).message).toMatch(
      /"memory" must be a table/,
    );
  });

  it("lets MEMORY_SEARCH_MODE win over the file and records env as the source", () => {
    const { config, sources } = loadConfig({
      text: '[memory]\nsearch_mode = "bm25"\n',
      env: { MEMORY_SEARCH_MODE: "embedding" },
    });
    expect(config.memory.search_mode).toBe("embedding");
    expect(sources.search_mode).toBe("env");
  });

  it("ignores empty environment variables", () => {
    const { config, sources } = loadConfig({
      text: '[memory]\nsearch_mode = "bm25"\n',
      env: { MEMORY_SEARCH_MODE: "" },
    });
    expect(config.memory.search_mode).toBe("bm25");
    expect(sources.search_mode).toBe("file");
  });

  it("parses booleans and numbers from the environment", () => {
    const { config, sources } = loadConfig({
      env: {
        MEMORY_DEFER_EMBEDDING: "true",
        MEMORY_RRF_K: "30",
        MEMORY_HYGIENE_ENABLED: "off",
        MEMORY_VECTOR_WEIGHT: "0.5",
        MEMORY_AUTO_RECALL: "0",
        MEMORY_DATA_DIR: "123",
      },
    });
    expect(config.memory.defer_embedding).toBe(true);
    expect(config.memory.rrf_k).toBe(30);
    expect(config.memory.hygiene_enabled).toBe(false);
    expect(config.memory.vector_weight).toBe(0.5);
    expect(config.memory.auto_recall).toBe(false);
    expect(config.memory.data_dir).toBe("123");
    expect(sources.rrf_k).toBe("env");
  });

  it("names the environment variable when its value is invalid", () => {
    const error = configError(() => loadConfig({ env: { MEMORY_RRF_K: "many" } }));
    expect(error.message).toContain("[memory].rrf_k (from MEMORY_RRF_K)");
  });

  it("lets programmatic overrides win over everything", () => {
    const { config, sources } = loadConfig({
      text: '[memory]\nsearch_mode = "bm25"\n',
      env: { MEMORY_SEARCH_MODE: "embedding" },
      overrides: { search_mode: "hybrid" },
    });
    expect(config.memory.search_mode).toBe("hybrid");
    expect(sources.search_mode).toBe("override");
  });
});

describe("createMemory", () => {
  const config = (memory: Record<string, unknown> = {}): MemoryConfig =>
    loadConfig({ env: {}, overrides: memory }).config;

  it("returns a NoneMemory for backend none without loading anything", async () => {
    const memory = await createMemory(config({ backend: "none" }), {
      loadModule: () => {
        throw new Error("must not load");
      },
    });
    expect(memory).toBeInstanceOf(NoneMemory);
    expect(memory.name).toBe("none");
    expect(await memory.recall("anything")).toEqual([]);
  });

  it("names the package to install when the backend is missing", async () => {
    const error = await configErrorAsync(
      createMemory(config({ backend: "postgres" }), {
        loadModule: async (specifier) => {
          throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
            code: "ERR_MODULE_NOT_FOUND",
          });
        },
      }),
    );
    expect(error.message).toContain("@memory/postgres");
    // Nothing is on the public npm registry: the hint is the tarball, never `pnpm add @memory/x`.
    expect(error.message).not.toMatch(/(pnpm add|npm install) @memory\//);
    expect(error.message).toContain("npm install ./memory-postgres-<version>.tgz");
    expect(error.message).toContain("pnpm release:pack");
    expect((error.cause as { code: string }).code).toBe("ERR_MODULE_NOT_FOUND");
  });

  it("passes other load errors through unchanged", async () => {
    const boom = new SyntaxError("bad module");
    await expect(
      createMemory(config({ backend: "sqlite" }), {
        loadModule: async () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
  });

  it("loads @memory/<backend> and hands it the config", async () => {
    const fake = new NoneMemory("fake backend");
    const calls: { specifier: string; config?: MemoryConfig; context?: unknown }[] = [];
    const cfg = config({ backend: "sqlite" });
    const memory = await createMemory(cfg, {
      loadModule: async (specifier) => {
        calls.push({ specifier });
        return {
          createMemoryFromConfig(received: MemoryConfig, context: unknown): Memory {
            calls.push({ specifier: "factory", config: received, context });
            return fake;
          },
        };
      },
    });
    expect(memory).toBe(fake);
    expect(calls[0]!.specifier).toBe("@memory/sqlite");
    expect(calls[1]!.config).toBe(cfg);
    expect(calls[1]!.context).toEqual({});
  });

  it("passes a given embedder to the backend", async () => {
    const embedder = {
      name: "test",
      model: "m",
      dimensions: 3,
      fingerprint: "test:m:3",
      embed: async (texts: string[]) => texts.map(() => [1, 0, 0]),
      embedOne: async () => [1, 0, 0],
    };
    let context: unknown;
    await createMemory(config({ backend: "markdown", embedding_provider: "openai" }), {
      embedder: embedder as never,
      loadModule: async (specifier) => {
        expect(specifier).toBe("@memory/markdown");
        return {
          createMemoryFromConfig: (_: MemoryConfig, ctx: unknown) => {
            context = ctx;
            return new NoneMemory();
          },
        };
      },
    });
    expect(context).toEqual({ embedder });
  });

  it("resolves the embedding provider through @memory/embeddings and drops a 0-dimension one", async () => {
    const loaded: string[] = [];
    let context: unknown;
    await createMemory(config({ backend: "sqlite", embedding_provider: "openai" }), {
      loadModule: async (specifier) => {
        loaded.push(specifier);
        if (specifier === "@memory/embeddings") {
          return { resolveEmbeddingProvider: () => ({ provider: { dimensions: 0 } }) };
        }
        return {
          createMemoryFromConfig: (_: MemoryConfig, ctx: unknown) => {
            context = ctx;
            return new NoneMemory();
          },
        };
      },
    });
    expect(loaded).toEqual(["@memory/embeddings", "@memory/sqlite"]);
    expect(context).toEqual({});
  });

  it("names @memory/embeddings when a remote provider is configured but not installed", async () => {
    const error = await configErrorAsync(
      createMemory(config({ backend: "sqlite", embedding_provider: "gemini" }), {
        loadModule: async (specifier) => {
          throw Object.assign(new Error(`Cannot find module '${specifier}'`), {
            code: "MODULE_NOT_FOUND",
          });
        },
      }),
    );
    expect(error.message).toMatch(
      /embedding_provider = "gemini" needs the package @memory\/embeddings/,
    );
  });

  it("does not blame the backend when one of its own dependencies is missing", async () => {
    const missing = Object.assign(new Error("Cannot find package 'better-sqlite3'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await createMemory(config({ backend: "sqlite" }), {
      loadModule: async () => {
        throw missing;
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBe(missing);
  });

  it("rejects a backend package without createMemoryFromConfig", async () => {
    const error = await configErrorAsync(
      createMemory(config({ backend: "lucid" }), { loadModule: async () => ({}) }),
    );
    expect(error.message).toMatch(/@memory\/lucid does not export createMemoryFromConfig/);
  });
});

describe("loadConfig path anchoring", () => {
  it("resolves relative paths written in a file against the file's directory", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "memory-config-"));
    const file = join(dir, "memory.toml");
    writeFileSync(
      file,
      '[memory]\ndata_dir = "./data"\n[sqlite]\npath = "db/brain.db"\n[markdown]\npath = "/abs/tree"\n[postgres]\nurl = "./not-a-path"\n',
    );
    const { config } = loadConfig({ file, env: { MEMORY_EMBEDDING_MODEL_DIR: "models" } });
    expect(config.memory.data_dir).toBe(join(dir, "data"));
    expect((config.sqlite as { path: string }).path).toBe(join(dir, "db/brain.db"));
    expect((config.markdown as { path: string }).path).toBe("/abs/tree");
    expect((config.postgres as { url: string }).url).toBe("./not-a-path");
    // From the environment: relative to the working directory, untouched.
    expect(config.memory.embedding_model_dir).toBe("models");
  });
});
