import { describe, expect, it } from "vitest";
import {
  baseImportance,
  CATEGORY_BASE_IMPORTANCE,
  computeImportance,
  HIGH_SIGNAL_WORDS,
} from "../src/index.js";

describe("baseImportance", () => {
  it("is core 0.7, daily 0.3, conversation 0.2, custom 0.4", () => {
    expect(baseImportance("core")).toBe(0.7);
    expect(baseImportance("daily")).toBe(0.3);
    expect(baseImportance("conversation")).toBe(0.2);
    expect(baseImportance("project-notes")).toBe(0.4);
    expect(baseImportance("custom")).toBe(0.4);
    expect(CATEGORY_BASE_IMPORTANCE).toEqual({
      core: 0.7,
      daily: 0.3,
      conversation: 0.2,
      custom: 0.4,
    });
  });

  it("is case-sensitive: `Core` is a custom category", () => {
    expect(baseImportance("Core")).toBe(0.4);
  });

  it("gives 0.4 to custom categories named like Object.prototype members", () => {
    for (const name of ["toString", "constructor", "valueOf", "hasOwnProperty", "__proto__"]) {
      expect(baseImportance(name)).toBe(0.4);
      expect(computeImportance("plain text", name)).toBe(0.4);
    }
  });
});

describe("computeImportance", () => {
  it("lists the ten high-signal words of the design", () => {
    expect([...HIGH_SIGNAL_WORDS].sort()).toEqual(
      [
        "always",
        "critical",
        "decision",
        "important",
        "must",
        "never",
        "policy",
        "principle",
        "requirement",
        "rule",
      ].sort(),
    );
  });

  it("is the category base for text without high-signal words", () => {
    expect(computeImportance("The user lives in Lisbon.", "core")).toBe(0.7);
    expect(computeImportance("Went for a walk.", "daily")).toBe(0.3);
    expect(computeImportance("hello there", "conversation")).toBe(0.2);
    expect(computeImportance("sprint notes", "work")).toBe(0.4);
  });

  it("adds 0.1 for one high-signal word", () => {
    expect(computeImportance("This is important.", "daily")).toBe(0.4);
    expect(computeImportance("We must ship on Friday", "conversation")).toBe(0.3);
  });

  it("makes daily text with `decision` and `must` reach 0.5", () => {
    expect(computeImportance("Decision: we must use Postgres in production.", "daily")).toBe(0.5);
  });

  it("gives exactly 0.9 for core with two high-signal words (no binary noise)", () => {
    expect(computeImportance("Always use tabs; this is a rule.", "core")).toBe(0.9);
  });

  it("caps the boost at +0.2 however many words appear", () => {
    const text = "decision always never important critical must requirement policy rule principle";
    expect(computeImportance(text, "daily")).toBe(0.5);
    expect(computeImportance(text, "conversation")).toBe(0.4);
  });

  it("counts each distinct word once", () => {
    expect(computeImportance("must must must MUST", "daily")).toBe(0.4);
  });

  it("matches case-insensitively", () => {
    expect(computeImportance("CRITICAL outage", "daily")).toBe(0.4);
  });

  it("matches whole words only: `rules`, `musty`, `decisions` and `neverland` do not count", () => {
    expect(computeImportance("House rules apply", "daily")).toBe(0.3);
    expect(computeImportance("a musty room in neverland", "daily")).toBe(0.3);
    expect(computeImportance("many decisions", "daily")).toBe(0.3);
    expect(computeImportance("one rule applies", "daily")).toBe(0.4);
  });

  it("finds words next to punctuation and hyphens", () => {
    expect(computeImportance("(important)", "daily")).toBe(0.4);
    expect(computeImportance("decision-making", "daily")).toBe(0.4);
  });

  it("reaches the 0.8 promotion threshold only for core text with a signal word", () => {
    expect(computeImportance("The user's name is Ana", "core")).toBeLessThan(0.8);
    expect(computeImportance("Never commit secrets", "core")).toBe(0.8);
    expect(computeImportance("Never commit secrets, always rotate", "custom-x")).toBe(0.6);
  });

  it("never exceeds 1", () => {
    for (const category of ["core", "daily", "conversation", "x"]) {
      expect(computeImportance(HIGH_SIGNAL_WORDS.join(" "), category)).toBeLessThanOrEqual(1);
    }
  });
});
