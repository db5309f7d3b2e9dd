import path from "node:path";
import type { MemoryConfig } from "@memory/api";

/** The file name of the snapshot in `data_dir` when `snapshot_path` is not set. */
export const SNAPSHOT_FILE_NAME = "MEMORY_SNAPSHOT.md";

/** Where the configuration keeps its snapshot: `snapshot_path`, else `<data_dir>/MEMORY_SNAPSHOT.md`. */
export function configuredSnapshotPath(config: MemoryConfig): string {
  return path.resolve(
    config.memory.snapshot_path ?? path.join(config.memory.data_dir, SNAPSHOT_FILE_NAME),
  );
}
