import type { RetrievalSettings } from "@memory/api";

/**
 * The one place that says how conflict detection is switched on for the benchmark: the rules
 * (`conflict_mode = "rules"`, the default) for core entries, superseding (`conflict_policy`), no
 * chat confirmation (packages/core/README.md, "Conflicts"). The runner passes the result to
 * `createSqliteMemory` unchanged. The baseline in the README was measured with
 * `{ conflictMode: "combined", conflictThreshold: 0.7 }` (the similarity score of earlier versions).
 */
export function conflictDetectionSettings(): Partial<RetrievalSettings> {
  return {
    conflictMode: "rules",
    conflictPolicy: "supersede",
    conflictConfirm: "off",
    conflictCategories: "core",
  };
}

/** How the settings are shown in the report, so a result file says what it measured. */
export function describeDetectionSettings(): string {
  return Object.entries(conflictDetectionSettings())
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(", ");
}
