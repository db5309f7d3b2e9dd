import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, MEMORY_SETTING_KEYS } from "@memory/api";
import { describe, expect, it } from "vitest";
import { closestKeys, editDistance, findKeyLine } from "../src/config/key-suggestions.js";
import { loadConfig } from "../src/index.js";

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("unknown [memory] keys", () => {
  it("suggests the closest key with its section, the file and the line, not every key", () => {
    const dir = mkdtempSync(join(tmpdir(), "memory-config-suggest-"));
    const file = join(dir, "memory.toml");
    writeFileSync(
      file,
      '# my memory\n[memory]\nbackend = "sqlite"\n\nembeding_provider = "noop"\n\n[sqlite]\n',
    );
    const error = configError(() => loadConfig({ file, env: {} }));
    expect(error.message).toContain("unknown key [memory].embeding_provider");
    expect(error.message).toContain(`${file}:5`);
    expect(error.message).toContain("did you mean [memory].embedding_provider?");
    // The other 31 keys are not listed in the message (they stay in details for tools).
    const listed = MEMORY_SETTING_KEYS.filter((key) =>
      new RegExp(`\\b${key}\\b`).test(error.message),
    );
    expect(listed).toEqual(["embedding_provider"]);
    expect(error.details?.allowedKeys).toEqual([...MEMORY_SETTING_KEYS]);
  });

  it("catches transpositions and names a line in TOML text without a file", () => {
    const error = configError(() =>
      loadConfig({ env: {}, text: '[memory]\nserach_mode = "bm25"\n' }),
    );
    expect(error.message).toContain("unknown key [memory].serach_mode (line 2)");
    expect(error.message).toContain("did you mean [memory].search_mode?");
  });

  it("reports each unknown key with its own suggestion", () => {
    const error = configError(() =>
      loadConfig({ env: {}, text: "[memory]\nhalf_life_day = 3\nrrf_kk = 10\n" }),
    );
    expect(error.message).toContain(
      "[memory].half_life_day (line 2): did you mean [memory].half_life_days?",
    );
    expect(error.message).toContain("[memory].rrf_kk (line 3): did you mean [memory].rrf_k?");
  });

  it("says where to find the keys when nothing is close, without guessing", () => {
    const error = configError(() => loadConfig({ env: {}, text: "[memory]\ncolour = 1\n" }));
    expect(error.message).toContain("unknown key [memory].colour (line 2)");
    expect(error.message).toContain("memory config show");
    expect(error.message).not.toContain("did you mean");
  });
});

describe("closestKeys", () => {
  it("counts an adjacent transposition as one edit", () => {
    expect(editDistance("serach", "search")).toBe(1);
    expect(editDistance("embeding_provider", "embedding_provider")).toBe(1);
  });

  it("returns every key at the smallest distance within the threshold", () => {
    expect(closestKeys("min_scor", MEMORY_SETTING_KEYS)).toEqual(["min_score"]);
    expect(closestKeys("Search-Mode", MEMORY_SETTING_KEYS)).toEqual(["search_mode"]);
    expect(closestKeys("xyz", MEMORY_SETTING_KEYS)).toEqual([]);
  });

  it("finds the line of a key inside its table only", () => {
    const text = '[sqlite]\npath = "a"\n[memory]\n  "path" = "b"\n';
    expect(findKeyLine(text, "memory", "path")).toBe(4);
    expect(findKeyLine(text, "memory", "data_dir")).toBeUndefined();
  });
});
