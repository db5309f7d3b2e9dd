import { type MemoryDriver, MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import { createInMemoryDriver, createMemoryFacade } from "../src/index.js";

/** The in-memory driver whose `open` fails, as a database that cannot be opened does. */
function unopenableDriver(): MemoryDriver {
  const driver = createInMemoryDriver();
  return Object.assign(Object.create(Object.getPrototypeOf(driver)), driver, {
    open: async () => {
      throw new Error("disk is gone");
    },
  });
}

describe("the facade's fallback to none", () => {
  it("rejects every operation with the open failure when fallbackToNone is off", async () => {
    const memory = createMemoryFacade(unopenableDriver(), { logger: () => {} });
    await expect(memory.store({ key: "k", content: "hello" })).rejects.toThrow(/disk is gone/);
    await expect(memory.recall("hello")).rejects.toThrow(/disk is gone/);
    await memory.close();
  });

  it("answers as the none backend, says so once in the log and in healthCheck", async () => {
    const logged: string[] = [];
    const memory = createMemoryFacade(unopenableDriver(), {
      fallbackToNone: true,
      logger: (message) => logged.push(message),
    });
    const stored = await memory.store({ key: "k", content: "hello" });
    expect(stored.key).toBe("k");
    expect(await memory.get("k")).toBeNull();
    expect(await memory.recall("hello")).toEqual([]);
    expect(await memory.count()).toBe(0);
    expect(memory.name).toBe("none");
    const health = await memory.healthCheck();
    expect(health.ok).toBe(false);
    expect(JSON.stringify(health)).toMatch(/disk is gone/);
    expect(logged.filter((line) => /none/i.test(line))).toHaveLength(1);
    await memory.close();
  });
});

describe("the facade over the in-memory driver", () => {
  it("rejects operations after close with a typed error", async () => {
    const memory = createMemoryFacade(createInMemoryDriver(), { logger: () => {} });
    await memory.store({ key: "k", content: "hello" });
    await memory.close();
    const error = await memory.get("k").catch((caught: unknown) => caught);
    expect(MemoryError.isInstance(error)).toBe(true);
  });

  it("stores, reads back and recalls through one driver", async () => {
    await using memory = createMemoryFacade(createInMemoryDriver(), { logger: () => {} });
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    expect((await memory.get("editor"))?.content).toBe("The user edits code in Neovim");
    const [best] = await memory.recall("which editor, neovim?", { minScore: 0 });
    expect(best?.key).toBe("editor");
  });
});
