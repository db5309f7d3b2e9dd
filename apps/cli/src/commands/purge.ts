import { CommandError, UsageError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { confirm } from "../io/confirm.js";

export interface PurgeOptions {
  namespace?: string;
  session?: string;
  yes?: boolean;
}

/**
 * `memory purge --namespace <ns> | --session <id>`: deletes in bulk. Without --yes it asks on
 * the terminal; with no terminal to ask on (a script), it refuses rather than guess.
 */
const purge: CommandHandler<PurgeOptions> = async (context, _args, options) => {
  const { namespace, session, yes } = options;
  if (namespace === undefined && session === undefined) {
    throw new UsageError("purge needs --namespace <name> or --session <id>");
  }
  const target =
    session === undefined
      ? `namespace ${namespace}`
      : `session ${session}${namespace === undefined ? " (all namespaces)" : ` in namespace ${namespace}`}`;
  if (!yes) {
    if (!context.output.terminal.interactiveInput || context.output.json) {
      throw new UsageError(
        `purge of ${target} needs confirmation: pass --yes (stdin is not a terminal)`,
      );
    }
    if (!(await confirm(`Delete every entry of ${target}? This cannot be undone.`))) {
      throw new CommandError("Purge cancelled: nothing was deleted.", EXIT_CODES.failure);
    }
  }
  const { memory } = await context.open("none");
  const removed =
    session === undefined
      ? await memory.purgeNamespace(namespace!)
      : await memory.purgeSession(session, namespace === undefined ? {} : { namespace });
  context.output.result(
    {
      removed,
      ...(namespace === undefined ? {} : { namespace }),
      ...(session === undefined ? {} : { sessionId: session }),
    },
    () => `removed ${removed} ${removed === 1 ? "entry" : "entries"} of ${target}`,
  );
};

export default purge;
