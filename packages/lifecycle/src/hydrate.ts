/**
 * Hydration lives in `@memory/api` (`openConfiguredMemory` runs it on open when `auto_hydrate`
 * is on, and the contract package cannot depend on this one); it is re-exported here next to
 * `writeSnapshot`, the job that writes the snapshots it reads.
 */
export {
  type HydrateOptions,
  type HydrateReport,
  hydrateFromSnapshot,
  hydrationMarkerPath,
  shouldAutoHydrate,
} from "@memory/core";
