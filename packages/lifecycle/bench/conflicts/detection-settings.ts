import type { RetrievalSettings } from "@memory/api";

/**
 * The one place that says how conflict detection is switched on for the benchmark. Today that is
 * `conflict_mode = "combined"` at the shipped threshold for core entries (packages/api/README.md,
 * "Conflicts"). When the rules of issue 24 land (`conflict_policy`, `conflict_confirm`), edit this
 * function and nothing else: the runner passes its result to `createSqliteMemory` unchanged.
 */
export function conflictDetectionSettings(): Partial<RetrievalSettings> {
  return { conflictMode: "combined", conflictThreshold: 0.7, conflictCategories: "core" };
}

/** How the settings are shown in the report, so a result file says what it measured. */
export function describeDetectionSettings(): string {
  return Object.entries(conflictDetectionSettings())
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(", ");
}
