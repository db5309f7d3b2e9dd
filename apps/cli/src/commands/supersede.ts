import { CommandError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";

/** `memory supersede <old> <new>`: both entries must exist; exit code 3 otherwise. */
export interface SupersedeOptions {
  namespace?: string;
}

const supersede: CommandHandler<SupersedeOptions> = async (context, args, options) => {
  const [oldKey, newKey] = args as [string, string];
  const namespace = options.namespace ?? "default";
  const { memory } = await context.open("none");
  const missing = (key: string, hint: string) =>
    new CommandError(
      `No entry with key ${JSON.stringify(key)} in namespace ${namespace}: ${hint}`,
      EXIT_CODES.notFound,
    );
  const [old, newer] = await Promise.all([
    memory.get(oldKey, { namespace }),
    memory.get(newKey, { namespace }),
  ]);
  if (!old) throw missing(oldKey, "nothing to supersede (see `memory list`).");
  if (!newer) throw missing(newKey, "store the newer entry first, then supersede the old one.");
  // Self-supersession and version keys: the library's INVALID_INPUT (exit code 2).
  if (!(await memory.markSuperseded(oldKey, newKey, { namespace })))
    throw missing(oldKey, "it was deleted meanwhile.");
  const previous = old.supersededBy;
  context.output.result(
    { oldKey, newKey, namespace, superseded: true, ...(previous ? { previous } : {}) },
    () => [
      `superseded ${oldKey} by ${newKey} (namespace ${namespace})${previous && previous !== newKey ? `, was superseded by ${previous}` : ""}`,
      `recall no longer returns ${oldKey}; its text is kept. Undo: memory unsupersede ${oldKey}${namespace === "default" ? "" : ` --namespace ${namespace}`}`,
    ],
  );
};

export default supersede;
