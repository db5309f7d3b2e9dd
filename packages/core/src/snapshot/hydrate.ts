import { readFile, rm, stat, writeFile } from "node:fs/promises";
import type { ImportEntry, ImportReport, Memory } from "@memory/api";
import { ConfigError, NotFoundError, validateNamespace } from "@memory/api";
import { type ParsedSnapshot, parseSnapshot, type SnapshotProblem } from "./parse.js";

export interface HydrateOptions {
  /** Read and compare only: report what would be imported, write nothing. */
  dryRun?: boolean;
  /** Stops the import between batches; what was committed stays (see `ImportOptions.signal`). */
  signal?: AbortSignal;
  onProgress?: (progress: { done: number }) => void;
}

/** The outcome of `hydrateFromSnapshot`. */
export interface HydrateReport {
  /** The snapshot file (as given). */
  path: string;
  /** Entries the snapshot holds (readable lines). */
  entries: number;
  /** Entries written (with `dryRun`: that would be written). */
  imported: number;
  /** Entries left alone because their namespace + key is already stored (or repeated in the file). */
  skipped: number;
  /** Lines that could not be read or entries the store refused, with their line numbers. */
  problems: SnapshotProblem[];
  dryRun: boolean;
  /** True when `signal` stopped the import. */
  interrupted: boolean;
}

/**
 * Written next to the snapshot while a hydration runs and removed when it ends: when it is still
 * there, a hydration was killed half-way, and `shouldAutoHydrate` finishes it.
 */
export function hydrationMarkerPath(snapshotPath: string): string {
  return `${snapshotPath}.hydrating`;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

async function readSnapshot(snapshotPath: string): Promise<ParsedSnapshot> {
  let text: string;
  try {
    text = await readFile(snapshotPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new NotFoundError(
        `The snapshot ${snapshotPath} does not exist: write one with \`memory snapshot\` (or writeSnapshot), or pass the right path (snapshot_path).`,
        { cause: error },
      );
    }
    throw new ConfigError(
      `The snapshot ${snapshotPath} cannot be read: ${(error as Error).message}. Check its permissions, or point snapshot_path elsewhere.`,
      { cause: error },
    );
  }
  return parseSnapshot(text);
}

function validNamespace(namespace: string): boolean {
  try {
    validateNamespace(namespace);
    return true;
  } catch {
    return false;
  }
}

/**
 * Re-imports a snapshot's entries into `memory` with their ids, timestamps and importance. An
 * entry whose namespace + key is already stored is skipped, not overwritten (the store may hold
 * a newer version), so hydrating twice, or after a hydration was killed, imports each entry
 * once. Unreadable lines and refused entries are reported with their line numbers; the rest is
 * imported. A failure of the store rejects (with how many entries were committed).
 */
export async function hydrateFromSnapshot(
  memory: Memory,
  snapshotPath: string,
  options: HydrateOptions = {},
): Promise<HydrateReport> {
  const parsed = await readSnapshot(snapshotPath);
  const problems = [...parsed.problems];
  const dryRun = options.dryRun === true;
  const report: HydrateReport = {
    path: snapshotPath,
    entries: parsed.records.length,
    imported: 0,
    skipped: 0,
    problems,
    dryRun,
    interrupted: false,
  };

  const stored = new Map<string, Set<string>>();
  const lines: number[] = [];
  const pending: ImportEntry[] = [];
  for (const { line, entry } of parsed.records) {
    let keys = stored.get(entry.namespace);
    if (keys === undefined) {
      keys = new Set();
      if (validNamespace(entry.namespace)) {
        for await (const existing of memory.export({
          namespace: entry.namespace,
          includeSuperseded: true,
        })) {
          keys.add(existing.key);
        }
      }
      stored.set(entry.namespace, keys);
    }
    if (keys.has(entry.key)) {
      report.skipped += 1;
      continue;
    }
    // A key written twice in the file: the first one wins, like the skip above.
    keys.add(entry.key);
    lines.push(line);
    pending.push(entry);
  }

  const marker = hydrationMarkerPath(snapshotPath);
  if (dryRun || pending.length === 0) {
    report.imported = pending.length;
    problems.sort((a, b) => a.line - b.line);
    // Nothing left to import: a marker left by a killed run is stale now.
    if (!dryRun) await rm(marker, { force: true });
    return report;
  }

  await writeFile(marker, `hydration from ${snapshotPath} started ${new Date().toISOString()}\n`);
  // On a failure (or a kill) the marker stays: the next open or `memory hydrate` finishes.
  const result: ImportReport = await memory.importEntries(pending, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  report.imported = result.imported;
  report.interrupted = result.interrupted === true;
  for (const rejection of result.rejected) {
    problems.push({
      line: lines[rejection.index] ?? 0,
      message: `${rejection.code}: ${rejection.message}`,
    });
  }
  problems.sort((a, b) => a.line - b.line);
  if (!report.interrupted) await rm(marker, { force: true });
  return report;
}

/**
 * True when the store should be rebuilt from the snapshot on open: the snapshot exists, and
 * either a hydration from it was killed half-way (its marker file is there), or the store is
 * missing or nearly empty: it holds fewer than half as many core entries (in the snapshot's
 * namespaces, superseded included) as the snapshot. "Half" rather than "fewer" so that
 * forgetting a few core entries on purpose does not bring them back on the next open.
 */
export async function shouldAutoHydrate(memory: Memory, snapshotPath: string): Promise<boolean> {
  if (!(await exists(snapshotPath))) return false;
  if (await exists(hydrationMarkerPath(snapshotPath))) return true;
  const parsed = await readSnapshot(snapshotPath);
  const inSnapshot = new Map<string, number>();
  for (const { entry } of parsed.records) {
    if ((entry.category ?? "core") !== "core") continue;
    inSnapshot.set(entry.namespace, (inSnapshot.get(entry.namespace) ?? 0) + 1);
  }
  let snapshotCore = 0;
  let storedCore = 0;
  for (const [namespace, count] of inSnapshot) {
    if (!validNamespace(namespace)) continue;
    snapshotCore += count;
    storedCore += await memory.count({
      namespace,
      categories: ["core"],
      includeSuperseded: true,
    });
  }
  return snapshotCore > 0 && storedCore * 2 < snapshotCore;
}
