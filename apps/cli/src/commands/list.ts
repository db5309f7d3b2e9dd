import type { ListOptions, MemoryEntry } from "@memory/api";
import type { CommandHandler } from "../cli/lazy-action.js";
import { renderTable } from "../output/table.js";
import { entryFilter, type FilterOptions } from "./shared/entry-filter.js";

export interface ListCommandOptions extends FilterOptions {
  limit: number;
  offset: number;
}

/** `memory list`: newest first, as a table (or `{ entries, total }` with --json). */
const list: CommandHandler<ListCommandOptions> = async (context, _args, options) => {
  const { limit, offset, ...filters } = options;
  const filter = entryFilter(filters);
  const listOptions: ListOptions = { ...filter, limit, offset };
  const { memory } = await context.open("none");
  const entries = await memory.list(listOptions);
  // The total tells a reader (or a paging script) whether there is more than this page.
  const total = await memory.count(filter);
  context.output.result({ entries, total, limit, offset }, () => {
    if (entries.length === 0)
      return total === 0 ? "no entries" : `no entries at offset ${offset} (total ${total})`;
    const lines = renderTable<MemoryEntry>(
      entries,
      [
        { header: "KEY", value: (entry) => entry.key },
        { header: "CATEGORY", value: (entry) => entry.category },
        { header: "UPDATED", value: (entry) => entry.updatedAt.slice(0, 19).replace("T", " ") },
        // Daily keys (`daily_<timestamp>_<uuid>`) are about 70 characters: then the content goes on
        // its own line rather than being cut to a stub.
        { header: "CONTENT", value: (entry) => entry.content, flexible: true, minWidth: 40 },
      ],
      process.stdout.columns ?? 100,
    );
    const shown = `${offset + 1}-${offset + entries.length} of ${total}`;
    lines.push(
      context.output.style.dim(
        total > offset + entries.length
          ? `${shown} (more with --offset ${offset + entries.length})`
          : shown,
      ),
    );
    return lines;
  });
};

export default list;
