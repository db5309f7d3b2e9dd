import { Option } from "commander";
import { defineCommand } from "./command-registration.js";
import { withFilters } from "./filter-options.js";

export const exportCommand = defineCommand((parent, action) => {
  withFilters(
    parent
      .command("export")
      .description("stream entries as JSONL (or a Markdown snapshot of core entries)")
      .option("-o, --output <file>", "write to a file instead of stdout")
      .addOption(
        new Option("--format <format>", "jsonl or snapshot")
          .choices(["jsonl", "snapshot"])
          .default("jsonl"),
      )
      .option("--with-embeddings", "include stored embeddings (jsonl)")
      .option("--exclude-superseded", "leave out entries replaced by newer ones"),
  ).action(action(() => import("../../commands/export.js")));
});
