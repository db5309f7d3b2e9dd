import { describe, expect, it } from "vitest";
import { ALL_MEMORY_TOOL_NAMES, memoryToolSpec, RESULT_MAX_CHARS } from "../src/index.js";

describe("memoryToolSpec", () => {
  it("adds the bounded-results notes to recall and list only", () => {
    const noted = ALL_MEMORY_TOOL_NAMES.filter(
      (name) =>
        memoryToolSpec(name, { boundedResults: true }).description !==
        memoryToolSpec(name).description,
    );
    expect(noted).toEqual(["memory_recall", "memory_list"]);
    for (const name of noted) {
      const bounded = memoryToolSpec(name, { boundedResults: true }).description;
      expect(bounded.startsWith(`${memoryToolSpec(name).description} Long contents are cut`)).toBe(
        true,
      );
      expect(bounded).toContain("memory_get");
    }
  });

  it("names the result bound in memory_get's description, and hands out copies", () => {
    expect(memoryToolSpec("memory_get").description).toContain(
      `longer than ${RESULT_MAX_CHARS} characters comes in parts`,
    );
    const spec = memoryToolSpec("memory_forget");
    spec.annotations.destructiveHint = false;
    expect(memoryToolSpec("memory_forget").annotations.destructiveHint).toBe(true);
  });
});
