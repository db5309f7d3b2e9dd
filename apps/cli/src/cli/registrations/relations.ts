import { collectList, parseCount } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

/** The weight as given: the library says what is wrong with it (a number from 0 to 1). */
const parseWeight = (value: string): number => (value.trim() === "" ? Number.NaN : Number(value));

export const relateCommand = defineCommand((parent, action) => {
  parent
    .command("relate <from> <to> <type>")
    .description(
      "relate entry <from> to entry <to> with a typed edge (semantic, supports, contradicts, causes, follows, mentions, derived_from, or a custom name); relating again keeps the stronger weight (exit code 3 when either entry does not exist)",
    )
    .option("-n, --namespace <name>", "namespace of both entries (default: default)")
    .option("-w, --weight <w>", "how strong, from 0 to 1 (default 1)", parseWeight)
    .option("--metadata <json>", "a JSON object kept with the edge")
    .action(action(() => import("../../commands/relate.js")));
});

export const unrelateCommand = defineCommand((parent, action) => {
  parent
    .command("unrelate <from> <to> [type]")
    .description("remove the edges from <from> to <to> (of [type], or of every type)")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/unrelate.js")));
});

export const graphCommand = defineCommand((parent, action) => {
  parent
    .command("graph <key>")
    .description(
      "the entries related to <key>, breadth-first over edges in both directions (at most 3 steps, 100 entries; exit code 3 when <key> does not exist)",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-d, --depth <n>", "how many steps from <key>, 1 to 3 (default 2)", parseCount)
    .option(
      "-t, --type <type...>",
      "follow only these relation types (repeat or comma-separate)",
      collectList,
    )
    .action(action(() => import("../../commands/graph.js")));
});
