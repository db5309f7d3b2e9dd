import type { NormalizedFilter } from "@memory/api";

/**
 * A recall filter as the facade hands it to a driver: the default namespace, current entries,
 * nothing else unless `fields` says so. For drivers' own tests of their stages.
 */
export function recallFilter(
  fields: Partial<NormalizedFilter> = {},
): NormalizedFilter & { namespace: string } {
  return {
    namespace: "default",
    sessionId: undefined,
    categories: undefined,
    since: undefined,
    until: undefined,
    includeSuperseded: false,
    ...fields,
  };
}
