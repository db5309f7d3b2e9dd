import { Option } from "commander";
import { collectList, oneOf, parsePositive } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const evalCommand = defineCommand((parent, action) => {
  parent
    .command("eval [file]")
    .description(
      "retrieval benchmark (LoCoMo file, or --memories/--questions) of this configuration, on a temporary store",
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
      "results asked per question (the largest k scored)",
      parsePositive,
      20,
    )
    .addOption(
      new Option("-m, --mode <mode>", "search mode (default: search_mode)").argParser(
        oneOf(["hybrid", "bm25", "embedding"] as const),
      ),
    )
    .option("--per-question", "with --json: add each question's returned keys and scores")
    .action(action(() => import("../../commands/eval.js")));
});
