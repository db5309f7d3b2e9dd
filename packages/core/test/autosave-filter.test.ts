import { describe, expect, it } from "vitest";
import { AUTOSAVE_SKIP_PREFIXES, shouldAutosave } from "../src/index.js";

describe("shouldAutosave", () => {
  it("skips empty and whitespace-only content", () => {
    for (const text of ["", " ", "\n\t  \r\n"]) expect(shouldAutosave(text)).toBe(false);
  });

  it("skips cron, heartbeat, distilled and memory-context lines", () => {
    expect(shouldAutosave("[cron:daily-summary] ran at 09:00")).toBe(false);
    expect(shouldAutosave("[heartbeat] ok")).toBe(false);
    expect(shouldAutosave("[heartbeat:5m]")).toBe(false);
    expect(shouldAutosave("[distilled_2026-03-01] summary")).toBe(false);
    expect(shouldAutosave("[memory context]\n- likes tea")).toBe(false);
  });

  it("matches the prefixes case-insensitively and after leading whitespace", () => {
    expect(shouldAutosave("[Memory context] - likes tea")).toBe(false);
    expect(shouldAutosave("[MEMORY CONTEXT]")).toBe(false);
    expect(shouldAutosave("[CRON:x]")).toBe(false);
    expect(shouldAutosave("   [Heartbeat] ok")).toBe(false);
  });

  it("skips content any of whose lines starts with a marker, not only its first (the seeds' rule)", () => {
    expect(shouldAutosave("Here is what I remember:\n[Memory context]\n- likes tea")).toBe(false);
    expect(shouldAutosave("ok\r\n  [cron:nightly] run hygiene")).toBe(false);
    expect(shouldAutosave("first line\n\n\t[HEARTBEAT] ok\nlast line")).toBe(false);
    expect(shouldAutosave("summary follows\r[distilled_2026-03-01] x")).toBe(false);
    // A marker inside a line is still just text.
    expect(shouldAutosave("line one\nthe [cron: job] failed\nline three")).toBe(true);
  });

  it("keeps normal text, including text that only mentions the prefixes later", () => {
    expect(shouldAutosave("I prefer tea over coffee")).toBe(true);
    expect(shouldAutosave("The [cron: job] failed yesterday")).toBe(true);
    expect(shouldAutosave("[note] remember the milk")).toBe(true);
    expect(shouldAutosave("heartbeat monitoring is down")).toBe(true);
  });

  it("needs the exact prefix: `[cron ` and `[distilled-` are kept", () => {
    expect(shouldAutosave("[cron job] x")).toBe(true);
    expect(shouldAutosave("[distilled-notes] x")).toBe(true);
  });

  it("exposes the prefixes of the design", () => {
    expect([...AUTOSAVE_SKIP_PREFIXES]).toEqual([
      "[cron:",
      "[heartbeat",
      "[distilled_",
      "[memory context]",
    ]);
  });
});
