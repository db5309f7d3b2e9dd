import { Command, Option } from "commander";
import { HOOK_EVENTS } from "../commands/hooks/hook-budgets.js";
import { MCP_CLIENTS } from "../commands/mcp/mcp-clients.js";
import type { Output } from "../output/output.js";
import { VERSION } from "../version.js";
import { lazyAction, type RunState } from "./lazy-action.js";
import {
  collectList,
  oneOf,
  parseCount,
  parsePort,
  parsePositive,
  parseTime,
  parseUnitInterval,
} from "./option-parsers.js";

// Filters shared by list, count, recall and export; applied before any limit.
function withFilters(command: Command, options: { session?: boolean } = {}): Command {
  command
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option(
      "-c, --category <names>",
      "only these categories (repeatable or comma-separated)",
      collectList,
    )
    .option("--since <time>", "updated at or after: ISO-8601 or relative (30m, 12h, 7d, 2w)", (v) =>
      parseTime(v),
    )
    .option("--until <time>", "updated before: ISO-8601 or relative", (v) => parseTime(v));
  if (options.session !== false)
    command.option("-s, --session <id>", "only entries of this session");
  return command;
}

/** Declares every command and its options; the implementations load lazily. */
export function buildProgram(output: Output, state: RunState): Command {
  const program = new Command("memory")
    .description("Long-term memory for AI agents: store, recall and maintain a memory store.")
    .version(VERSION, "-V, --version", "print the version")
    .option(
      "--config <file>",
      "configuration file (default: ./memory.toml, then $XDG_CONFIG_HOME/memory/memory.toml)",
    )
    .option("--json", "machine-readable output: one JSON document (JSON lines for streams)")
    .option("--verbose", "on error, print the cause chain")
    .showSuggestionAfterError(true)
    // Set before any subcommand is added, so every subcommand inherits them.
    .exitOverride()
    // Commander's own error text is replaced by the one-line format of run-cli.
    .configureOutput({ outputError: () => {} });
  const action = (load: Parameters<typeof lazyAction>[2]) => lazyAction(output, state, load);

  program
    .command("init")
    .description("write ./memory.toml with the embedded default (SQLite under ./.memory)")
    .option("--force", "overwrite an existing file")
    .option("--embedding-provider <name>", "embedding provider (local, noop, openai, ...)", "local")
    .action(action(() => import("../commands/init.js")));

  const config = program.command("config").description("inspect and check the configuration");
  config
    .command("show")
    .description("print the effective configuration, where each value came from, secrets masked")
    .action(action(() => import("../commands/config-show.js")));
  config
    .command("validate [file]")
    .description("check a configuration file (default: the one this run would use)")
    .action(action(() => import("../commands/config-validate.js")));

  program
    .command("store [content...]")
    .description("store an entry (content from the arguments, or stdin when absent or -)")
    .option(
      "-k, --key <key>",
      "entry key (default: derived from the content, so storing twice is idempotent)",
    )
    .option("-c, --category <name>", "core, daily, conversation or a custom name", "core")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-s, --session <id>", "session id")
    .option("--importance <0..1>", "importance from 0 to 1", parseUnitInterval)
    .action(action(() => import("../commands/store.js")));

  withFilters(
    program
      .command("recall [query...]")
      .description("find the entries that best match a query (empty: most recent)")
      .option("-l, --limit <n>", "maximum results", parseCount, 5)
      .addOption(
        new Option("-m, --mode <mode>", "search mode (default: search_mode)").argParser(
          oneOf(["hybrid", "bm25", "embedding"] as const),
        ),
      )
      .option("--min-score <0..1>", "drop results scoring below this", parseUnitInterval)
      .option("--include-superseded", "include entries replaced by newer ones")
      .option(
        "--explain",
        "show keyword rank and score, vector rank and cosine, fused score and decay",
      ),
  ).action(action(() => import("../commands/recall.js")));

  program
    .command("get <key>")
    .description("print one entry (exit code 3 when it does not exist)")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../commands/get.js")));

  withFilters(
    program
      .command("list")
      .description("list entries, newest first, as a table")
      .option("-l, --limit <n>", "maximum rows", parseCount, 50)
      .option("--offset <n>", "skip this many rows", parseCount, 0)
      .option("--include-superseded", "include entries replaced by newer ones"),
  ).action(action(() => import("../commands/list.js")));

  program
    .command("forget <key>")
    .description("delete one entry (exit code 3 when it does not exist)")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../commands/forget.js")));

  program
    .command("purge")
    .description("delete every entry of a namespace or of a session")
    .option(
      "-n, --namespace <name>",
      "purge this namespace (with --session: only that session in it)",
    )
    .option("-s, --session <id>", "purge this session")
    .option("-y, --yes", "do not ask for confirmation")
    .action(action(() => import("../commands/purge.js")));

  withFilters(
    program
      .command("count")
      .description("count entries")
      .option("--include-superseded", "include entries replaced by newer ones"),
  ).action(action(() => import("../commands/count.js")));

  withFilters(
    program
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
  ).action(action(() => import("../commands/export.js")));

  program
    .command("import [file]")
    .description("import JSONL (file, or stdin when absent or -); upsert on namespace + key")
    .action(action(() => import("../commands/import.js")));

  program
    .command("snapshot")
    .description("write the core entries to the Markdown snapshot now (atomically)")
    .option("--path <file>", "snapshot file (default: snapshot_path or data_dir)")
    .action(action(() => import("../commands/snapshot.js")));

  program
    .command("hydrate")
    .description("re-import a snapshot's entries; stored namespace + keys are skipped")
    .option("--path <file>", "snapshot file (default: snapshot_path or data_dir)")
    .option("--dry-run", "only report what would be restored")
    .action(action(() => import("../commands/hydrate.js")));

  program
    .command("reindex")
    .description("re-embed every entry with the configured provider and record its fingerprint")
    .option("--batch-size <n>", "texts per provider call", parsePositive)
    .action(action(() => import("../commands/reindex.js")));

  program
    .command("backfill")
    .description("embed entries that have no embedding yet (deferred or failed)")
    .option("--batch-size <n>", "texts per provider call", parsePositive)
    .action(action(() => import("../commands/backfill.js")));

  program
    .command("doctor")
    .description("check configuration, backend, full text, embeddings, pending work and size")
    .action(action(() => import("../commands/doctor.js")));

  program
    .command("hygiene")
    .description("prune stale conversation and daily entries now (never core), every namespace")
    .option("--dry-run", "report what would be deleted; delete nothing")
    .action(action(() => import("../commands/hygiene.js")));

  program
    .command("curate")
    .description(
      "the chat model (chat_provider) proposes deletions and merges of core/daily entries; validated, then applied",
    )
    .option("--dry-run", "validate and report the proposal; change nothing")
    .option("-n, --namespace <name>", "curate only this namespace (default: every namespace)")
    .action(action(() => import("../commands/curate.js")));

  program
    .command("consolidate [message...]")
    .description(
      "consolidate a turn without an LLM: a daily entry, promotion to core when important, superseding what it contradicts",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-s, --session <id>", "session id")
    .option("--reply <text>", "the assistant's reply to the turn")
    .option(
      "--files",
      "markdown backend: the chat model rewrites MEMORY.md from the recent daily files, behind guards",
    )
    .option("--days <n>", "with --files: daily files of the last n days (default 7)", parsePositive)
    .option("--force", "with --files: allow more than 25% of the entries to disappear")
    .option("--dry-run", "with --files: check the answer and show the diff; write nothing")
    .action(action(() => import("../commands/consolidate.js")));

  program
    .command("remember [turn...]")
    .description(
      "store a conversation turn, then the durable facts the chat model finds in it as core entries",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-s, --session <id>", "session id")
    .option("--reply <text>", "the assistant's reply to the turn")
    .action(action(() => import("../commands/remember.js")));

  program
    .command("jobs")
    .description(
      "maintenance jobs (hygiene, snapshot, curate, transcripts): last run, next run, last result",
    )
    .action(action(() => import("../commands/jobs.js")));

  program
    .command("worker")
    .description("run only the maintenance jobs on their schedule until Ctrl-C")
    .action(action(() => import("../commands/worker.js")));

  program
    .command("migrate")
    .description("copy every entry from one configuration's store to another's (idempotent)")
    .requiredOption("--from <config>", "source configuration file")
    .requiredOption("--to <config>", "target configuration file")
    .option("--batch-size <n>", "entries per write", parsePositive, 500)
    .action(action(() => import("../commands/migrate.js")));

  program
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
    .action(action(() => import("../commands/eval.js")));

  program
    .command("serve")
    .description("start the HTTP JSON API (delegates to @memory/server)")
    .option("--host <host>", "interface to listen on")
    .option("-p, --port <port>", "port to listen on (0: any free port)", parsePort)
    .option("--allow-unauthenticated-loopback", "serve without tokens (loopback hosts only)")
    .action(action(() => import("../commands/serve.js")));

  program
    .command("mcp")
    .description("run the MCP server over stdio (delegates to @memory/server)")
    .option(
      "--print-config <client>",
      `print the configuration an MCP client needs instead of serving: ${MCP_CLIENTS.join(", ")}`,
    )
    .option("--http [url]", "with --print-config: the HTTP endpoint (default: [server] host/port)")
    .option("--token <token>", "with --http: the bearer token to print (printed as given)")
    .option("--show-token", "with --http: print the configured token instead of a reference")
    .action(action(() => import("../commands/mcp.js")));

  const hooks = program.command("hooks").description("coding-agent hooks (Claude Code, Codex)");
  hooks
    .command("install <agent>")
    .description("write memory's hooks into claude-code's settings or codex's config (idempotent)")
    .option("--project", "claude-code: ./.claude/settings.json (the default)")
    .option("--user", "claude-code: ~/.claude/settings.json; codex: ~/.codex/config.toml")
    .option("--remove", "take memory's hooks out again (other hooks are kept)")
    .option("--print", "print the resulting file instead of writing it")
    .option("--command <program>", "how the hooks run memory (default: memory, on the PATH)")
    .option("--server", "claude-code: the prompt hook asks the running `memory serve` first")
    .action(action(() => import("../commands/hooks/hooks-install.js")));

  program
    .command("hook <event> [notification]")
    .description(
      `what an agent's hook runs (${HOOK_EVENTS.join(", ")}): reads its JSON on stdin; fails open (prints nothing, exit 0)`,
    )
    .option("--budget-ms <ms>", "give up after this long (default 1500; stop 10000)", parsePositive)
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("--server", "prompt: ask the running `memory serve` ([server] host/port) first")
    .addOption(new Option("--in-process", "run the work here, without the watchdog").hideHelp())
    .action(action(() => import("../commands/hooks/hook.js")));

  return program;
}
