import { join } from "node:path";
import { defaultConfig } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createMemoryFromConfig } from "../src/index.js";
import { tempDir } from "./helpers.js";

describe("createMemoryFromConfig", () => {
  it("opens <data_dir>/memory/brain.db by default and [sqlite].path when given", async () => {
    const dataDir = tempDir();
    const base = defaultConfig();
    const memory = createMemoryFromConfig(
      { ...base, memory: { ...base.memory, data_dir: dataDir } },
      {},
    );
    await memory.store({ key: "k", content: "v" });
    expect((await memory.healthCheck()).details.file).toBe(join(dataDir, "memory", "brain.db"));
    await memory.close();
    const custom = join(tempDir(), "custom.db");
    const other = createMemoryFromConfig({ ...base, sqlite: { path: custom } }, {});
    expect((await other.healthCheck()).details.file).toBe(custom);
    await other.close();
  });
});
