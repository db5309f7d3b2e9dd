import type { CommandHandler } from "../cli/lazy-action.js";
import { entryFilter, type FilterOptions } from "./shared/entry-filter.js";

/** `memory count`: entries matching the filters (same rules as `list`). */
const count: CommandHandler<FilterOptions> = async (context, _args, options) => {
  const filter = entryFilter(options);
  const { memory } = await context.open("none");
  const total = await memory.count(filter);
  context.output.result({ count: total, namespace: filter.namespace ?? "default" }, () =>
    String(total),
  );
};

export default count;
