import { Option } from "commander";
import { collectList, oneOf, parsePositive } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const evalCommand = defineCommand((parent, action) => {
  parent
    .command("eval [file]")
    .description(
      "retrieval benchmark (LoCoMo file, or --memories/--questions) of this configuration, on a temporary store; --agent-loop: what the agent loop's memory context holds",
    )
    .option("--memories <file>", "generic format: memories JSONL ({key, content, namespace?, ...})")
    .option("--questions <file>", "generic format: questions JSONL ({question, expected: [keys]})")
    .option(
      "--conversations <ids>",
      "LoCoMo: only these conversations (repeatable or comma-separated)",
      collectList,
    )
    .option(
      "-l, --limit <n>",
      "results asked per question (the largest k scored; default 20)",
      parsePositive,
    )
    .addOption(
      new Option("-m, --mode <mode>", "search mode (default: search_mode)").argParser(
        oneOf(["hybrid", "bm25", "embedding"] as const),
      ),
    )
    .option("--per-question", "with --json: add each question's returned keys and scores")
    .option(
      "--agent-loop",
      "replay LoCoMo and a scripted life through autosaveTurn + buildMemoryContext and measure the contexts",
    )
    .option("--dataset <file>", "--agent-loop: the LoCoMo file (default: $MEMORY_EVAL_LOCOMO)")
    .option("--life <file>", "--agent-loop: a life scenario (default: the built-in one)")
    .addOption(
      new Option("--clock <clock>", "--agent-loop: wall, dated or both (default both)").argParser(
        oneOf(["wall", "dated", "both"] as const),
      ),
    )
    .action(action(() => import("../../commands/eval.js")));
});
