import { ConfigError, type MemoryConfig } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { describe, expect, it } from "vitest";
import { markdownOptionsFromConfig } from "../src/create-memory-from-config.js";

function config(markdown?: Record<string, unknown>): MemoryConfig {
  const base = defaultConfig();
  return markdown === undefined ? base : { ...base, markdown };
}

describe("markdown configuration", () => {
  it("watches the tree in long-running processes unless [markdown].watch says otherwise", () => {
    expect(markdownOptionsFromConfig(config()).watch).toBeUndefined();
    expect(markdownOptionsFromConfig(config(), { longRunning: true }).watch).toBe(true);
    expect(markdownOptionsFromConfig(config({ watch: false }), { longRunning: true }).watch).toBe(
      false,
    );
    expect(markdownOptionsFromConfig(config({ watch: true })).watch).toBe(true);
  });

  it("rejects unknown keys and bad values with a ConfigError naming them", () => {
    expect(() => markdownOptionsFromConfig(config({ wach: true }))).toThrow(ConfigError);
    expect(() => markdownOptionsFromConfig(config({ wach: true }))).toThrow(/\[markdown\]\.wach/);
    expect(() => markdownOptionsFromConfig(config({ watch: "yes" }))).toThrow(/watch/);
    expect(() => markdownOptionsFromConfig(config({ path: "" }))).toThrow(/path/);
  });
});
