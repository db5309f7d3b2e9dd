import { describe, expect, it } from "vitest";
import { ageInDays, DEFAULT_HALF_LIFE_DAYS, decayFactor } from "../src/index.js";

const DAY = 86_400_000;

describe("decayFactor", () => {
  it("has a 7-day default half-life", () => {
    expect(DEFAULT_HALF_LIFE_DAYS).toBe(7);
  });

  it("is exactly 0.5 at 7 days and 0.25 at 14 days", () => {
    expect(decayFactor("daily", 7)).toBe(0.5);
    expect(decayFactor("conversation", 14)).toBe(0.25);
    expect(decayFactor("my-notes", 21)).toBe(0.125);
  });

  it("is 1 at age 0 and 2^(-1/7) after one day", () => {
    expect(decayFactor("daily", 0)).toBe(1);
    expect(decayFactor("daily", 1)).toBeCloseTo(2 ** (-1 / 7), 15);
  });

  it("never decays core entries", () => {
    expect(decayFactor("core", 0)).toBe(1);
    expect(decayFactor("core", 365)).toBe(1);
    expect(decayFactor("core", 7, 1)).toBe(1);
  });

  it("clamps future timestamps (negative age) at 1 instead of boosting", () => {
    expect(decayFactor("daily", -3)).toBe(1);
  });

  it("takes a custom half-life", () => {
    expect(decayFactor("daily", 30, 30)).toBe(0.5);
    expect(decayFactor("daily", 7, 14)).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it("treats a zero, negative or infinite half-life as no decay", () => {
    expect(decayFactor("daily", 10, 0)).toBe(1);
    expect(decayFactor("daily", 10, -7)).toBe(1);
    expect(decayFactor("daily", 10, Number.POSITIVE_INFINITY)).toBe(1);
  });
});

describe("ageInDays", () => {
  const now = Date.parse("2026-03-15T12:00:00.000Z");

  it("measures days between a timestamp and now", () => {
    expect(ageInDays("2026-03-08T12:00:00.000Z", now)).toBe(7);
    expect(ageInDays("2026-03-15T00:00:00.000Z", now)).toBe(0.5);
  });

  it("is negative for timestamps in the future", () => {
    expect(ageInDays("2026-03-16T12:00:00.000Z", now)).toBe(-1);
  });

  it("is 0 for a timestamp that does not parse", () => {
    expect(ageInDays("not a date", now)).toBe(0);
  });

  it("defaults now to the current time", () => {
    const stamp = new Date(Date.now() - 2 * DAY).toISOString();
    expect(ageInDays(stamp)).toBeCloseTo(2, 4);
  });

  it("composes with decayFactor to 0.5 for a week-old daily entry", () => {
    expect(decayFactor("daily", ageInDays("2026-03-08T12:00:00.000Z", now))).toBe(0.5);
  });
});
