import type { CommandHandler } from "../cli/lazy-action.js";
import type { PinOptions } from "./pin.js";

/** `memory unsnooze <key>`: NOT_FOUND (exit code 3) when there is no such entry. */
const unsnooze: CommandHandler<PinOptions> = async (context, args, options) => {
  const [key] = args as [string];
  const { memory } = await context.open("none");
  const entry = await memory.unsnooze(
    key,
    options.namespace ? { namespace: options.namespace } : {},
  );
  context.output.result(entry, () => [
    `${entry.key} is awake (namespace ${entry.namespace}): recall and the memory context return it again`,
  ]);
};

export default unsnooze;
