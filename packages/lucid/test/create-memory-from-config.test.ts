import { join } from "node:path";
import type { MemoryConfig } from "@memory/api";
import { createMemory, defaultConfig } from "@memory/core";
import { doctorHints as sqliteDoctorHints } from "@memory/sqlite";
import { describe, expect, it } from "vitest";
import {
  createMemoryFromConfig,
  describeStore,
  doctorHints,
  lucidOptionsFromConfig,
} from "../src/index.js";
import { tempDir } from "./helpers.js";

function config(lucid?: Record<string, unknown>): MemoryConfig {
  const base = defaultConfig();
  const dir = tempDir();
  return {
    ...base,
    memory: { ...base.memory, backend: "lucid", data_dir: dir },
    ...(lucid ? { lucid } : {}),
  };
}

describe("createMemoryFromConfig", () => {
  it("reads the [lucid] table", () => {
    expect(
      lucidOptionsFromConfig(
        config({
          command: "/opt/lucid",
          args: ["--quiet"],
          store_timeout_ms: 900,
          recall_timeout_ms: 400,
          local_hit_threshold: 2,
          cooldown_seconds: 30,
          sync_retries: 1,
          context_args: ["context", "{query}"],
        }),
      ),
    ).toEqual({
      command: "/opt/lucid",
      args: ["--quiet"],
      storeTimeoutMs: 900,
      recallTimeoutMs: 400,
      localHitThreshold: 2,
      cooldownSeconds: 30,
      syncRetries: 1,
      contextArgs: ["context", "{query}"],
    });
  });

  it("names a bad or unknown key", () => {
    expect(() => lucidOptionsFromConfig(config({ recall_timeout: 5 }))).toThrow(
      /\[lucid\]\.recall_timeout/,
    );
    expect(() => lucidOptionsFromConfig(config({ sync_retries: -1 }))).toThrow(/sync_retries/);
    expect(() => lucidOptionsFromConfig(config({ args: "x" }))).toThrow(/\[lucid\]\.args/);
  });

  it("opens the configured SQLite file under the lucid backend", async () => {
    const settings = config({ command: join(tempDir(), "missing-lucid") });
    const memory = createMemoryFromConfig(settings, {});
    try {
      expect(memory.name).toBe("lucid");
      await memory.store({ key: "k", content: "v" });
      expect((await memory.healthCheck()).details.local).toBe("sqlite");
    } finally {
      await memory.close();
    }
    const description = describeStore(settings);
    expect(description.identity).toBe(`lucid:sqlite:${description.location}`);
    expect(description.location).toMatch(/memory\/brain\.db$/);
  });

  it("is what createMemory loads for backend = lucid", async () => {
    const settings = config({ command: join(tempDir(), "missing-lucid") });
    settings.memory.embedding_provider = "noop";
    const memory = await createMemory(settings, { loadModule: (name) => import(name) });
    try {
      expect(memory.name).toBe("lucid");
    } finally {
      await memory.close();
    }
  });
});

describe("doctorHints", () => {
  // The store is the [sqlite] file: doctor gives SQLite's advice, not "the [lucid] table".
  it("is the local SQLite store's advice", () => {
    expect(doctorHints).toBe(sqliteDoctorHints);
    expect(doctorHints.notWritable!(config())).toContain("[sqlite].path");
  });
});
