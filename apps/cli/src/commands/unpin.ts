import type { CommandHandler } from "../cli/lazy-action.js";
import type { PinOptions } from "./pin.js";

/** `memory unpin <key>`: NOT_FOUND (exit code 3) when there is no such entry. */
const unpin: CommandHandler<PinOptions> = async (context, args, options) => {
  const [key] = args as [string];
  const { memory } = await context.open("none");
  const entry = await memory.unpin(key, options.namespace ? { namespace: options.namespace } : {});
  context.output.result(entry, () => [
    `unpinned ${entry.key} (namespace ${entry.namespace}): it ranks and ages like any entry again`,
  ]);
};

export default unpin;
