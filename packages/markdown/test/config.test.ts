import { ConfigError, type MemoryConfig } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { describe, expect, it } from "vitest";
import { markdownOptionsFromConfig, unhonouredSettings } from "../src/create-memory-from-config.js";
import { MarkdownDriver } from "../src/markdown-driver.js";

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

  it("declares the keys it does not honour once: the module exports the driver's declaration", () => {
    const driver = new MarkdownDriver({ root: "/tmp/markdown-unhonoured-settings" });
    expect(unhonouredSettings).toBe(driver.unhonouredSettings);
    expect(Object.keys(driver.unhonouredSettings)).toEqual(["defer_embedding"]);
    expect(driver.capabilities.deferredEmbedding).toBe(false);
  });
});
