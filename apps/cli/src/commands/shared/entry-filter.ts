import type { EntryFilter } from "@memory/api";

/** The filter options shared by list, count, recall and export, as commander parsed them. */
export interface FilterOptions {
  namespace?: string;
  category?: string[];
  session?: string;
  since?: string;
  until?: string;
  includeSuperseded?: boolean;
}

/** Builds an `EntryFilter`, leaving unset what was not given so backend defaults apply. */
export function entryFilter(options: FilterOptions): EntryFilter {
  const filter: EntryFilter = {};
  if (options.namespace !== undefined) filter.namespace = options.namespace;
  if (options.category !== undefined && options.category.length > 0)
    filter.categories = options.category;
  if (options.session !== undefined) filter.sessionId = options.session;
  if (options.since !== undefined) filter.since = options.since;
  if (options.until !== undefined) filter.until = options.until;
  if (options.includeSuperseded) filter.includeSuperseded = true;
  return filter;
}
