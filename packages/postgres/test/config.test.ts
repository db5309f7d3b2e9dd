import { defaultConfig, MemoryError } from "@memory/api";
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
    ).toThrow(/\[postgres\]\.uri/);
    expect(() => createPostgresMemory({ connectionString: TEST_URL, schema: "Bad-Name" })).toThrow(
      /schema/,
    );
    expect(() => createPostgresMemory({})).toThrow(/connectionString/);
  });
});
