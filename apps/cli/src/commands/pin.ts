import type { CommandHandler } from "../cli/lazy-action.js";
import { namespaceFlag } from "./shared/describe-marks.js";

export interface PinOptions {
  namespace?: string;
}

/** `memory pin <key>`: NOT_FOUND (exit code 3) when there is no such entry. */
const pin: CommandHandler<PinOptions> = async (context, args, options) => {
  const [key] = args as [string];
  const { memory } = await context.open("none");
  const entry = await memory.pin(key, options.namespace ? { namespace: options.namespace } : {});
  context.output.result(entry, () => [
    `pinned ${entry.key} (namespace ${entry.namespace}): always eligible for the memory context, boosted in recall, never pruned by hygiene`,
    `undo: memory unpin ${entry.key}${namespaceFlag(entry.namespace)}`,
  ]);
};

export default pin;
