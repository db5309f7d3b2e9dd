import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import type { MemoryConfig } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { describe, expect, it } from "vitest";
import {
  createMemoryFromConfig,
  describeStore,
  sqliteDatabasePath,
  sqliteOptionsFromConfig,
} from "../src/index.js";
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

  // Before: `[sqlite] pth = ...` in a configuration built in code opened the default database.
  it("rejects an unknown [sqlite] key with the closest one, before opening anything", () => {
    const dataDir = tempDir();
    const base = defaultConfig();
    const config = {
      ...base,
      memory: { ...base.memory, data_dir: dataDir },
      sqlite: { pth: "x.db" },
    };
    expect(() => createMemoryFromConfig(config, {})).toThrow(
      "unknown key [sqlite].pth: did you mean [sqlite].path?",
    );
    expect(() => describeStore(config)).toThrow(/\[sqlite\]\.pth/);
  });
});

describe("describeStore", () => {
  const withDataDir = (dataDir: string): MemoryConfig => {
    const base = defaultConfig();
    return { ...base, memory: { ...base.memory, data_dir: dataDir } };
  };

  it("describes the file the options open, without creating it", () => {
    const dataDir = tempDir();
    const config = withDataDir(dataDir);
    const file = join(realpathSync(dataDir), "memory", "brain.db");
    expect(sqliteOptionsFromConfig(config).path).toBe(sqliteDatabasePath(config));
    expect(describeStore(config)).toEqual({ identity: `sqlite:${file}`, location: file });
  });

  it("gives a relative and an absolute path to the same file the same identity", () => {
    const dir = tempDir();
    const file = join(dir, "brain.db");
    const absolute = { ...defaultConfig(), sqlite: { path: file } };
    const fromCwd = { ...defaultConfig(), sqlite: { path: relative(process.cwd(), file) } };
    const viaDataDir = withDataDir(join(dir, "x", ".."));
    expect(describeStore(fromCwd).identity).toBe(describeStore(absolute).identity);
    // The default path (<data_dir>/memory/brain.db) is a different file.
    expect(describeStore(viaDataDir).identity).not.toBe(describeStore(absolute).identity);
    expect(describeStore(viaDataDir).location).toBe(join(realpathSync(dir), "memory", "brain.db"));
  });

  it("resolves symbolic links, so a linked directory is the same store", () => {
    const real = tempDir();
    const link = join(tempDir(), "link");
    symlinkSync(real, link, "dir");
    mkdirSync(join(real, "db"));
    const direct = describeStore({ ...defaultConfig(), sqlite: { path: join(real, "db/a.db") } });
    const linked = describeStore({ ...defaultConfig(), sqlite: { path: join(link, "db/a.db") } });
    expect(linked.identity).toBe(direct.identity);
  });

  it("gives every :memory: database its own identity", () => {
    const config = { ...defaultConfig(), sqlite: { path: ":memory:" } };
    expect(describeStore(config).location).toBe(":memory:");
    expect(describeStore(config).identity).not.toBe(describeStore(config).identity);
  });
});
