import type { CommandHandler } from "../cli/lazy-action.js";

export interface UnrelateOptions {
  namespace?: string;
}

/** `memory unrelate <from> <to> [type]`: how many edges went (0 is not an error). */
const unrelate: CommandHandler<UnrelateOptions> = async (context, args, options) => {
  const [from, to, type] = args as [string, string, string | undefined];
  const namespace = options.namespace ?? "default";
  const { memory } = await context.open("none");
  const removed = await memory.unrelate(from, to, type, { namespace });
  context.output.result(
    { from, to, ...(type === undefined ? {} : { type }), namespace, removed },
    () =>
      `removed ${removed} ${removed === 1 ? "relation" : "relations"} from ${from} to ${to}${type === undefined ? "" : ` of type ${type}`} (namespace ${namespace})`,
  );
};

export default unrelate;
