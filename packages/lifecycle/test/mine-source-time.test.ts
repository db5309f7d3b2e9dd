import { describe, expect, it } from "vitest";
import { sourceTime } from "../src/mine/source-time.js";

describe("mine: source timestamps become UTC without the host's time zone", () => {
  it.each([
    ["2025-03-04T10:02:00.000+01:00", "2025-03-04T09:02:00.000Z"],
    ["2024-06-10T08:00:00.000000+00:00", "2024-06-10T08:00:00.000Z"],
    ["2024-05-01 10:00:00-0700", "2024-05-01T17:00:00.000Z"],
    // No offset in the source: read as UTC, whatever TZ the process runs in.
    ["2024-05-01T10:00:00", "2024-05-01T10:00:00.000Z"],
    ["2024-05-01", "2024-05-01T00:00:00.000Z"],
    [1714550400.5, "2024-05-01T08:00:00.500Z"],
    ["1709283600.000200", "2024-03-01T09:00:00.000Z"],
  ])("%s -> %s", (input, expected) => {
    expect(sourceTime(input)).toBe(expected);
  });

  it.each([[null], [""], ["yesterday"], [0], ["2024-13-45T99:00:00Z"]])(
    "%s has no time",
    (input) => {
      expect(sourceTime(input)).toBeUndefined();
    },
  );
});
