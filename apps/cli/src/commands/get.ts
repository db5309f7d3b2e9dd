import { CommandError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { entryDetails } from "./shared/describe-entry.js";

/** `memory get <key>`: one entry, or exit code 3. Opens the store without any embedder. */
export interface GetOptions {
  namespace?: string;
}

const get: CommandHandler<GetOptions> = async (context, args, options) => {
  const [key] = args as [string];
  const namespace = options.namespace;
  const { memory } = await context.open("none");
  const entry = await memory.get(key, namespace === undefined ? {} : { namespace });
  if (!entry) {
    throw new CommandError(
      `No entry with key ${JSON.stringify(key)} in namespace ${namespace ?? "default"}: check the key with \`memory list\` or \`memory recall\`.`,
      EXIT_CODES.notFound,
    );
  }
  context.output.result(entry, () => entryDetails(entry, context.output.style));
};

export default get;
