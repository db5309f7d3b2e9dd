// The `memory` binary. It stays tiny on purpose: `memory --version` answers from here without
// importing commander, @memory/api or any backend, and every command is loaded on demand.
import { VERSION } from "./version.js";

const args = process.argv.slice(2);
const wantsVersion =
  args.length > 0 && args.every((arg) => ["--version", "-V", "--json"].includes(arg));

if (wantsVersion && (args.includes("--version") || args.includes("-V"))) {
  process.stdout.write(
    args.includes("--json") ? `${JSON.stringify({ version: VERSION })}\n` : `${VERSION}\n`,
  );
} else {
  const { runCli } = await import("./cli/run-cli.js");
  process.exitCode = await runCli(args);
  // A forgotten handle in a dependency (a pool, a timer) must not keep a finished command alive
  // (`serve` returns only after shutdown). The timer is unref'd: it never delays a process that
  // exits by itself, and leaves time for piped stdout to drain.
  setTimeout(() => process.exit(), 5_000).unref();
}
