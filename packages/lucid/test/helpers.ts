import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import type { LucidMemoryOptions } from "../src/index.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fresh directory under the OS temp dir, removed after the test file. */
export function tempDir(): string {
  const root = mkdtempSync(join(tmpdir(), "memory-lucid-"));
  roots.push(root);
  return root;
}

export const FAKE_LUCID = join(
  dirname(fileURLToPath(import.meta.url)),
  "fixtures",
  "fake-lucid.mjs",
);

/** Runs the fake as `node fake-lucid.mjs ...` with the given environment. */
export function fakeLucid(
  env: Record<string, string> = {},
): Pick<LucidMemoryOptions, "command" | "args" | "env"> {
  return { command: process.execPath, args: [FAKE_LUCID], env };
}

/** The argument vectors the fake received (one per call), from its FAKE_LUCID_LOG file. */
export function calls(log: string): string[][] {
  try {
    return readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as string[]);
  } catch {
    return [];
  }
}

/** A clock that only moves when told. */
export function manualClock(start = Date.parse("2026-11-23T12:00:00.000Z")) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}
