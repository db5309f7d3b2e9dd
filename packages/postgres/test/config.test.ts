import { MemoryError } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { createTestEmbedder, gatedEmbedder } from "@memory/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createMemoryFromConfig, createPostgresMemory } from "../src/index.js";
import { schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("cfg");
afterAll(() => schemas.dropAll());

describe("postgres: configuration", () => {
  it("reads [postgres].url and schema, and the retrieval keys of [memory]", async () => {
    const schema = schemas.next();
    const config = { ...defaultConfig(), postgres: { url: TEST_URL, schema } };
    config.memory.search_mode = "bm25";
    const memory = createMemoryFromConfig(config, {}, {});
    expect(memory.schema).toBe(schema);
    await memory.store({ key: "k", content: "configured" });
    expect((await memory.recall("configured"))[0]!.explain!.mode).toBe("bm25");
    await memory.close();
  });

  it("falls back to MEMORY_POSTGRES_URL, then DATABASE_URL", async () => {
    const schema = schemas.next();
    const config = { ...defaultConfig(), postgres: { schema } };
    const memory = createMemoryFromConfig(config, {}, { DATABASE_URL: TEST_URL });
    expect(await memory.count()).toBe(0);
    await memory.close();
  });

  it("says which setting to fix when no URL is configured or a key is unknown", () => {
    const missing = (() => {
      try {
        createMemoryFromConfig(defaultConfig(), {}, {});
      } catch (error) {
        return error;
      }
    })();
    expect(MemoryError.hasCode(missing, "CONFIG")).toBe(true);
    expect((missing as Error).message).toMatch(/MEMORY_POSTGRES_URL/);
    expect(() =>
      createMemoryFromConfig({ ...defaultConfig(), postgres: { uri: "x" } }, {}, {}),
    ).toThrow("unknown key [postgres].uri: did you mean [postgres].url?");
    expect(() => createPostgresMemory({ connectionString: TEST_URL, schema: "Bad-Name" })).toThrow(
      /schema/,
    );
    expect(() => createPostgresMemory({})).toThrow(/connectionString/);
  });

  // Before: embedding_cache_max was not read, and warnings went to console.warn.
  it("sends its warnings to the app's log and reads embedding_cache_max", async () => {
    const schema = schemas.next();
    const base = { ...defaultConfig(), postgres: { url: TEST_URL, schema } };
    const english = createMemoryFromConfig(base, {}, {});
    await english.store({ key: "k", content: "running shoes" });
    await english.close();
    const lines: string[] = [];
    const config = {
      ...base,
      memory: { ...base.memory, text_language: "none" as const, embedding_cache_max: 7 },
    };
    const memory = createMemoryFromConfig(config, { log: (line) => lines.push(line) }, {});
    await memory.init();
    expect(lines.join("\n")).toMatch(/text_language|re-?index/i);
    await memory.close();

    // embedding_cache_max = 0 (and no result cache): the same query is embedded each time.
    const embedder = gatedEmbedder(createTestEmbedder({ dimensions: 16 }));
    const uncached = {
      ...base,
      postgres: { url: TEST_URL, schema: schemas.next() },
      memory: { ...base.memory, embedding_cache_max: 0, recall_cache_size: 0 },
    };
    const counted = createMemoryFromConfig(uncached, { embedder: embedder.provider }, {});
    await counted.recall("where is the kettle");
    await counted.recall("where is the kettle");
    expect(embedder.calls).toEqual([["where is the kettle"], ["where is the kettle"]]);
    await counted.close();
  });
});
