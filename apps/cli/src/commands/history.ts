import { CommandError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";

/** `memory history <key>`: the entry and its kept versions, newest first; exit code 3 for none. */
export interface HistoryOptions {
  namespace?: string;
}

const history: CommandHandler<HistoryOptions> = async (context, args, options) => {
  const [key] = args as [string];
  const namespace = options.namespace ?? "default";
  const { memory } = await context.open("none");
  const versions = await memory.history(key, { namespace });
  if (versions.length === 0) {
    throw new CommandError(
      `No entry with key ${JSON.stringify(key)} in namespace ${namespace}, and no earlier version of it: check the key with \`memory list\`.`,
      EXIT_CODES.notFound,
    );
  }
  const { style } = context.output;
  context.output.result({ key, namespace, versions }, () =>
    versions.map((version) => {
      const label = version.key === key ? "current" : version.key;
      return `${style.dim(version.updatedAt)}  ${style.bold(label)}  ${version.content}`;
    }),
  );
};

export default history;
