import type { UsageRecordExport, UsageStats } from "@memory/api";
import { z } from "zod";
import { named, timestamp } from "./fields.js";

// The usage numbers of an entry (docs/usage.md), shared by the entry shape (export) and the
// usage report. Kept apart from wire/usage.ts so that wire/entry.ts does not import the routes'
// request shapes.

export const UsageStatsSchema = named(
  "UsageStats",
  z
    .object({
      surfaced: z.number().int().describe("Times a recall or a memory context returned it."),
      used: z.number().int().describe("Times feedback said the agent used it."),
      ignored: z.number().int().describe("Times feedback said the agent ignored it."),
      queries: z.number().int().describe("Distinct queries it was used for."),
      days: z.number().int().describe("Distinct UTC days it was used on."),
      lastSurfacedAt: timestamp.optional(),
      lastUsedAt: timestamp.optional(),
    })
    .describe("An entry's usage statistics."),
);

export const UsageRecordExportSchema = named(
  "UsageRecordExport",
  z
    .object({
      stats: UsageStatsSchema,
      lastUsedDay: z.string().optional().describe("The last UTC day (YYYY-MM-DD) it was used."),
      recentQueries: z.array(z.string()).describe("Hashes of its most recent distinct queries."),
    })
    .describe("The usage part of an exported entry (import restores it)."),
);

// Field for field what the contract says (as wire/entry.ts checks MemoryEntry).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const statsMatch: Same<keyof z.output<typeof UsageStatsSchema>, keyof UsageStats> = true;
const recordMatch: Same<keyof z.output<typeof UsageRecordExportSchema>, keyof UsageRecordExport> =
  true;
void statsMatch;
void recordMatch;
