import { collectList, parsePositive, parseSnoozeFor } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

// Usage (docs/usage.md): feedback on a recall, pins, snoozes and the usage report.

export const feedbackCommand = defineCommand((parent, action) => {
  parent
    .command("feedback <recallId>")
    .description(
      "record which results of a recall (its recallId, printed by `memory recall`) were used, and which were ignored, given as keys (--used) or inferred from the reply (--reply) (exit code 3 for an unknown recallId, 2 for a key that was not a result)",
    )
    .option("--used <keys>", "keys that were used, comma-separated (repeatable)", collectList)
    .option(
      "--reply <text>",
      "instead of --used: the assistant's reply; a result counts as used when the reply quotes its distinctive words",
    )
    .option("--ignored <keys>", "keys that were read and not used, comma-separated", collectList)
    .option("-n, --namespace <name>", "namespace the recall ran in (default: default)")
    .action(action(() => import("../../commands/feedback.js")));
});

export const pinCommand = defineCommand((parent, action) => {
  parent
    .command("pin <key>")
    .description(
      "pin an entry: always eligible for the memory context, boosted in recall, never pruned by hygiene (exit code 3 when it does not exist)",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/pin.js")));
});

export const unpinCommand = defineCommand((parent, action) => {
  parent
    .command("unpin <key>")
    .description("unpin an entry (exit code 3 when it does not exist)")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/unpin.js")));
});

export const snoozeCommand = defineCommand((parent, action) => {
  parent
    .command("snooze <key>")
    .description(
      "leave an entry out of recall and the memory context until --until or for --for (default 7d); `recall --include-snoozed` still shows it (exit code 3 when it does not exist)",
    )
    .option(
      "--until <time>",
      "when it comes back: RFC 3339 (2026-12-31T09:00:00Z) or a date (2026-12-31)",
    )
    .option("--for <length>", "for how long: 90s, 30m, 12h, 7d, 2w", parseSnoozeFor)
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/snooze.js")));
});

export const unsnoozeCommand = defineCommand((parent, action) => {
  parent
    .command("unsnooze <key>")
    .description("bring a snoozed entry back now (exit code 3 when it does not exist)")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/unsnooze.js")));
});

export const usageCommand = defineCommand((parent, action) => {
  parent
    .command("usage")
    .description(
      "how often recall surfaced each entry and the agent used it, most used first, with pins and snoozes",
    )
    .option(
      "--candidates",
      "also list pin candidates (used often, on many days) and snooze candidates (surfaced often, almost never used)",
    )
    .option(
      "-l, --limit <n>",
      "at most this many entries (default 50, at most 1000)",
      parsePositive,
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/usage.js")));
});
