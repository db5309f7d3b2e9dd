import { CommandError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";

/** `memory forget <key>`: deletes one entry; exit code 3 when there was nothing to delete. */
export interface ForgetOptions {
  namespace?: string;
}

const forget: CommandHandler<ForgetOptions> = async (context, args, options) => {
  const [key] = args as [string];
  const namespace = options.namespace ?? "default";
  const { memory } = await context.open("none");
  const removed = await memory.forget(key, { namespace });
  if (!removed) {
    throw new CommandError(
      `No entry with key ${JSON.stringify(key)} in namespace ${namespace}: nothing was deleted (see \`memory list\`).`,
      EXIT_CODES.notFound,
    );
  }
  context.output.result(
    { key, namespace, forgotten: true },
    () => `forgot ${key} (namespace ${namespace})`,
  );
};

export default forget;
