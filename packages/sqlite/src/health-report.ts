import type { DriverHealth } from "@memory/api";
import { SCHEMA_VERSION } from "./migrations/schema.js";
import type { Opened } from "./opened-store.js";
import { probeStorage } from "./storage-probe.js";
import { countUsageEvents } from "./usage/usage-pruning.js";

/** The SQLite part of `healthCheck`: entry count, a real write probe, the database's facts. */
export function healthReport(opened: Opened): DriverHealth {
  const { space, connection } = opened;
  const pageCount = connection.db.pragma("page_count", { simple: true }) as number;
  const pageSize = connection.db.pragma("page_size", { simple: true }) as number;
  return {
    entries: (opened.statements.get("SELECT count(*) AS n FROM memories").get() as { n: number }).n,
    storage: probeStorage(opened),
    ...(space.problem === undefined ? {} : { vectorProblem: space.problem }),
    details: {
      file: connection.file,
      sizeBytes: pageCount * pageSize,
      schemaVersion: SCHEMA_VERSION,
      vectorIndexLoaded: opened.vectors.loaded,
      usageEvents: countUsageEvents(opened.statements),
    },
  };
}
