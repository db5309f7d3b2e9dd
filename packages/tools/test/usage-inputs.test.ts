import { describe, expect, it } from "vitest";
import { snoozeForMs } from "../src/index.js";

describe("snoozeForMs", () => {
  it("turns a count and a unit, or milliseconds, into milliseconds", () => {
    expect(snoozeForMs("90s")).toBe(90_000);
    expect(snoozeForMs("30m")).toBe(1_800_000);
    expect(snoozeForMs("12h")).toBe(43_200_000);
    expect(snoozeForMs("7d")).toBe(604_800_000);
    expect(snoozeForMs("2w")).toBe(1_209_600_000);
    expect(snoozeForMs(5000)).toBe(5000);
  });

  it("refuses anything else with INVALID_INPUT naming the accepted forms", () => {
    for (const bad of ["7 days", "7", "d", "-1d", "1.5h", 0, -5, 1.5, ""]) {
      expect(() => snoozeForMs(bad), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: "INVALID_INPUT", message: expect.stringMatching(/"7d"/) }),
      );
    }
  });
});
