import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Memory } from "@memory/api";
import { SNAPSHOT_FILE_NAME, writeSnapshotText } from "@memory/core";

export interface WriteSnapshotOptions {
  /** Only these namespaces; default every namespace that holds core entries. */
  namespaces?: readonly string[];
  /** Written into the header comment, e.g. `memory 0.1.0`. */
  generator?: string;
}

/** What `writeSnapshot` wrote. */
export interface SnapshotReport {
  /** Core entries written. */
  entries: number;
  /** Namespaces that had at least one core entry. */
  namespaces: string[];
  /** The snapshot file (absolute). */
  path: string;
  /** Size of the file in bytes. */
  bytes: number;
}

/** `MEMORY_SNAPSHOT.md`: the default snapshot file name (in `data_dir`). */
export { SNAPSHOT_FILE_NAME };

/**
 * Writes the core entries of every namespace (or of `options.namespaces`), superseded ones
 * included, as a Markdown snapshot (the format of `formatSnapshot` in `@memory/api`). The file is
 * replaced atomically: written to a temporary file in the same directory, flushed to disk, then
 * renamed over the target, so a reader (or a crash) sees the old snapshot or the new one, never
 * half of one. The directory is created when missing.
 */
export async function writeSnapshot(
  memory: Memory,
  snapshotPath: string,
  options: WriteSnapshotOptions = {},
): Promise<SnapshotReport> {
  const target = path.resolve(snapshotPath);
  const directory = path.dirname(target);
  await mkdir(directory, { recursive: true });
  const temporary = path.join(
    directory,
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  const file = await open(temporary, "wx");
  let bytes = 0;
  let summary: Awaited<ReturnType<typeof writeSnapshotText>>;
  try {
    // Buffered: one write per ~64 KiB instead of one per entry.
    let buffer = "";
    const flush = async () => {
      if (buffer === "") return;
      const chunk = Buffer.from(buffer, "utf8");
      buffer = "";
      await file.write(chunk);
      bytes += chunk.length;
    };
    summary = await writeSnapshotText(
      memory,
      async (chunk) => {
        buffer += chunk;
        if (buffer.length >= 65_536) await flush();
      },
      {
        ...(options.namespaces ? { namespaces: options.namespaces } : {}),
        ...(options.generator ? { generator: options.generator } : {}),
      },
    );
    await flush();
    await file.sync();
    await file.close();
  } catch (error) {
    await file.close().catch(() => {});
    await rm(temporary, { force: true });
    throw error;
  }
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
  return { entries: summary.entries, namespaces: summary.namespaces, path: target, bytes };
}

// The rename is durable only once the directory entry is on disk; not every platform lets a
// directory be opened for fsync (Windows), and the snapshot is already complete without it.
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort, see above.
  }
}
