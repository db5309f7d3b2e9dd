import { ConfigError, type EmbeddingProvider, type MemoryConfig } from "@memory/api";
import { describe, expect, it } from "vitest";
import {
  describeConfiguredStore,
  EMBEDDINGS_DISABLED_REASON,
  embeddingsDisabled,
  loadConfig,
  NoneMemory,
  openConfiguredMemory,
  resolveConfiguredProvider,
} from "../src/index.js";

const config = (memory: Record<string, unknown> = {}): MemoryConfig =>
  loadConfig({ env: {}, overrides: memory }).config;

function embedder(dimensions = 3): EmbeddingProvider {
  return {
    name: "test",
    model: "m",
    dimensions,
    fingerprint: `test:m:${dimensions}`,
    embed: async (texts: string[]) => texts.map(() => [1, 0, 0]),
    embedOne: async () => [1, 0, 0],
  } as unknown as EmbeddingProvider;
}

/** A fake package loader: records what is loaded and what the backend receives. */
function fakePackages(resolved?: { provider: EmbeddingProvider; reason?: string }) {
  const loaded: string[] = [];
  const contexts: unknown[] = [];
  const memory = new NoneMemory("fake backend");
  const loadModule = async (specifier: string) => {
    loaded.push(specifier);
    if (specifier === "@memory/embeddings") {
      if (!resolved) throw new Error("@memory/embeddings must not be loaded");
      return { resolveEmbeddingProvider: () => resolved };
    }
    return {
      createMemoryFromConfig: (_: MemoryConfig, context: unknown) => {
        contexts.push(context);
        return memory;
      },
      describeStore: (received: MemoryConfig) => ({
        identity: `fake:${received.memory.data_dir}`,
        location: received.memory.data_dir,
      }),
    };
  };
  return { loadModule, loaded, contexts, memory };
}

describe("embeddingsDisabled", () => {
  it("is the noop/none rule, whatever the case or spacing", () => {
    expect(embeddingsDisabled({ embedding_provider: "noop" })).toBe(true);
    expect(embeddingsDisabled({ embedding_provider: " None " })).toBe(true);
    expect(embeddingsDisabled({ embedding_provider: "local" })).toBe(false);
    expect(embeddingsDisabled({})).toBe(false);
  });
});

describe("openConfiguredMemory", () => {
  it("opens keyword-only without loading @memory/embeddings when no embeddings are asked for", async () => {
    const { loadModule, loaded, contexts } = fakePackages();
    const opened = await openConfiguredMemory(config({ embedding_provider: "openai" }), {
      embeddings: "none",
      loadModule,
    });
    expect(loaded).toEqual(["@memory/sqlite"]);
    expect(contexts).toEqual([{}]);
    expect(opened.provider).toBeUndefined();
    expect(opened.providerReason).toMatch(/keyword-only/);
  });

  it("does not load @memory/embeddings for embedding_provider = noop and says why", async () => {
    const { loadModule, loaded } = fakePackages();
    const opened = await openConfiguredMemory(config({ embedding_provider: "noop" }), {
      loadModule,
    });
    expect(loaded).toEqual(["@memory/sqlite"]);
    expect(opened.provider).toBeUndefined();
    expect(opened.providerReason).toBe(EMBEDDINGS_DISABLED_REASON);
  });

  it("resolves the configured provider, hands it to the backend and reports the reason", async () => {
    const provider = embedder();
    const { loadModule, loaded, contexts, memory } = fakePackages({
      provider,
      reason: "openai: as configured",
    });
    const opened = await openConfiguredMemory(config({ embedding_provider: "openai" }), {
      loadModule,
    });
    expect(loaded).toEqual(["@memory/embeddings", "@memory/sqlite"]);
    expect(contexts).toEqual([{ embedder: provider }]);
    expect(opened).toMatchObject({ provider, providerReason: "openai: as configured" });
    expect(opened.memory).toBe(memory);
  });

  it("treats a 0-dimension provider as keyword-only but keeps its reason", async () => {
    const { loadModule, contexts } = fakePackages({
      provider: embedder(0),
      reason: "noop: no key is set",
    });
    const opened = await openConfiguredMemory(config({ embedding_provider: "openai" }), {
      loadModule,
    });
    expect(contexts).toEqual([{}]);
    expect(opened.provider).toBeUndefined();
    expect(opened.providerReason).toBe("noop: no key is set");
  });

  it("uses a given embedder without resolving one", async () => {
    const provider = embedder();
    const { loadModule, loaded, contexts } = fakePackages();
    const opened = await openConfiguredMemory(config({ embedding_provider: "openai" }), {
      embedder: provider,
      loadModule,
    });
    expect(loaded).toEqual(["@memory/sqlite"]);
    expect(contexts).toEqual([{ embedder: provider }]);
    expect(opened.provider).toBe(provider);
  });

  it("returns a NoneMemory for backend none without loading anything", async () => {
    const opened = await openConfiguredMemory(config({ backend: "none" }), {
      loadModule: () => {
        throw new Error("must not load");
      },
    });
    expect(opened.memory).toBeInstanceOf(NoneMemory);
    expect(opened.provider).toBeUndefined();
  });
});

describe("resolveConfiguredProvider", () => {
  it("names @memory/embeddings when it is needed but not installed", async () => {
    const error = await resolveConfiguredProvider(config({ embedding_provider: "voyage" }), {
      loadModule: async (specifier) => {
        throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
          code: "ERR_MODULE_NOT_FOUND",
        });
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /embedding_provider = "voyage" needs the package @memory\/embeddings/,
    );
  });
});

describe("describeConfiguredStore", () => {
  it("asks the backend package to describe its store", async () => {
    const { loadModule, loaded } = fakePackages();
    const described = await describeConfiguredStore(config({ data_dir: "/data" }), {
      loadModule,
    });
    expect(loaded).toEqual(["@memory/sqlite"]);
    expect(described).toEqual({ identity: "fake:/data", location: "/data" });
  });

  it("gives undefined for backend none and for a backend that does not describe stores", async () => {
    expect(
      await describeConfiguredStore(config({ backend: "none" }), {
        loadModule: () => {
          throw new Error("must not load");
        },
      }),
    ).toBeUndefined();
    expect(
      await describeConfiguredStore(config(), {
        loadModule: async () => ({ createMemoryFromConfig: () => new NoneMemory() }),
      }),
    ).toBeUndefined();
  });

  it("names the backend package when it is not installed", async () => {
    const error = await describeConfiguredStore(config({ backend: "postgres" }), {
      loadModule: async (specifier) => {
        throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
          code: "ERR_MODULE_NOT_FOUND",
        });
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/backend = "postgres" needs the package/);
  });
});

describe("openConfiguredMemory: the log", () => {
  it("is handed to the backend as its logger, and carries the ignored-key warnings", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const contexts: { log?: unknown }[] = [];
    const loadModule = async () => ({
      unhonouredSettings: { defer_embedding: "this backend always embeds before store returns" },
      createMemoryFromConfig: (_: MemoryConfig, context: { log?: unknown }) => {
        contexts.push(context);
        return new NoneMemory("fake backend");
      },
    });
    await openConfiguredMemory(config({ defer_embedding: true, auto_hydrate: false }), {
      embeddings: "none",
      loadModule,
      log,
    });
    expect(contexts[0]?.log).toBe(log);
    expect(lines).toEqual([
      '[memory].defer_embedding = true has no effect with backend = "sqlite": this backend always embeds before store returns. Remove it, or choose a backend that honours it (docs/configuration.md).',
    ]);
  });
});
