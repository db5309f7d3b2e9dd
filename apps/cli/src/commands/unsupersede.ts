import type { CommandHandler } from "../cli/lazy-action.js";

/**
 * `memory unsupersede <key>`: the library refuses a missing entry (NOT_FOUND, exit code 3), a
 * current one (CONFLICT, exit code 1) and a version's key (INVALID_INPUT, exit code 2).
 */
export interface UnsupersedeOptions {
  namespace?: string;
}

const unsupersede: CommandHandler<UnsupersedeOptions> = async (context, args, options) => {
  const [key] = args as [string];
  const namespace = options.namespace ?? "default";
  const { memory } = await context.open("none");
  const before = await memory.get(key, { namespace });
  const entry = await memory.unsupersede(key, { namespace });
  const previous = before?.supersededBy;
  context.output.result(
    { key, namespace, restored: true, ...(previous ? { previous } : {}), entry },
    () =>
      `restored ${key} (namespace ${namespace})${previous ? `: no longer superseded by ${previous}` : ""}; recall returns it again`,
  );
};

export default unsupersede;
