import { join } from "node:path";
import { runConformanceSuite } from "@memory/testkit";
import { createLucidMemory, type LucidMemoryOptions } from "../src/index.js";
import { fakeLucid, tempDir } from "./helpers.js";

/**
 * The whole suite, three times: the external tool absent (the command does not exist), slow
 * (it never answers: every call ends at the timeouts) and present (it answers every recall with
 * a context block; its lines share no word with the suite's data, so the suite's expectations
 * about what recall returns still hold, while every recall with few local hits runs it).
 */
const variants: [string, LucidMemoryOptions][] = [
  ["lucid (tool absent)", { command: join(tempDir(), "no-such-lucid") }],
  [
    "lucid (tool slow)",
    {
      ...fakeLucid({ FAKE_LUCID_MODE: "hang" }),
      recallTimeoutMs: 100,
      storeTimeoutMs: 100,
      syncRetries: 0,
      closeTimeoutMs: 50,
    },
  ],
  [
    "lucid (tool present)",
    {
      ...fakeLucid({
        FAKE_LUCID_ANSWER:
          "- [decision] Zorblat quuxification stays frobnicated\n- [bug] Wibblewobble flange regression",
      }),
      closeTimeoutMs: 5000,
      // Bounds a busy machine cannot race: every recall with few local hits really runs the tool.
      recallTimeoutMs: 60_000,
      storeTimeoutMs: 60_000,
    },
  ],
];

for (const [name, lucid] of variants) {
  runConformanceSuite({
    name,
    create: async ({ embedder, settings, now }) =>
      createLucidMemory({
        ...lucid,
        logger: () => {},
        sqlite: {
          path: join(tempDir(), "brain.db"),
          ...settings,
          ...(embedder ? { embedder } : {}),
          ...(now ? { now } : {}),
          logger: () => {},
        },
      }),
    createShared: async () => {
      const path = join(tempDir(), "brain.db");
      return {
        open: async ({ embedder, settings, now }) =>
          createLucidMemory({
            ...lucid,
            logger: () => {},
            sqlite: {
              path,
              ...settings,
              ...(embedder ? { embedder } : {}),
              ...(now ? { now } : {}),
              logger: () => {},
            },
          }),
      };
    },
  });
}
