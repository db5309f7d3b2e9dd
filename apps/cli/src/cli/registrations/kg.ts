import { defineCommand } from "./command-registration.js";

export const kgCommand = defineCommand((parent, action) => {
  parent
    .command("kg <entity...>")
    .description(
      'the knowledge-graph triples about <entity> (as subject or object) that hold now, or at --as-of, newest first; "user" (or "me") is the user (docs/knowledge-graph.md)',
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option(
      "--as-of <time>",
      "the time the triples must hold at: RFC 3339 (2026-01-31T12:00:00Z) or a date (2026-01-31); default now",
    )
    .action(action(() => import("../../commands/kg.js")));
});
