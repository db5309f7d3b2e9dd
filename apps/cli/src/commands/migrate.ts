import path from "node:path";
import type { ImportEntry, MemoryEntry } from "@memory/api";
import { UsageError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { loadCliConfigFile } from "../config/load-cli-config.js";
import { createProgress } from "../output/progress.js";
import { describeStore } from "../store/open-memory.js";

export interface MigrateOptions {
  from: string;
  to: string;
  batchSize: number;
}

interface MigrateRejection {
  namespace: string;
  key: string;
  code: string;
  message: string;
}

/** True when the target already holds this exact version of the entry (a resumed run skips it). */
function unchanged(source: MemoryEntry, target: MemoryEntry | null): boolean {
  return (
    target !== null &&
    target.updatedAt === source.updatedAt &&
    target.content === source.content &&
    target.category === source.category &&
    target.supersededBy === source.supersededBy
  );
}

function toImport(entry: MemoryEntry, withEmbedding: boolean): ImportEntry {
  const { score: _score, explain: _explain, embedding, ...rest } = entry;
  return withEmbedding && embedding && embedding.length > 0 ? { ...rest, embedding } : rest;
}

/**
 * `memory migrate --from a.toml --to b.toml`: streams every entry (all namespaces, superseded
 * included) from one store into another. Writes are upserts that keep ids and timestamps, and
 * entries already present in the same version are skipped, so an interrupted migration is
 * resumed by running it again. Vectors are copied when the source's stored fingerprint equals
 * the target provider's; otherwise the target embeds (or defers) them itself.
 */
const migrate: CommandHandler<MigrateOptions> = async (context, _args, options) => {
  const { from, to, batchSize } = options;
  // The two files say exactly which stores to use; MEMORY_* variables would apply to both.
  const source = loadCliConfigFile({ file: path.resolve(from), origin: "flag" }, {});
  const target = loadCliConfigFile({ file: path.resolve(to), origin: "flag" }, {});
  // Each backend says which store its configuration opens (paths resolved, no password).
  const [sourceStore, targetStore] = await Promise.all([
    describeStore(source.config),
    describeStore(target.config),
  ]);
  if (sourceStore && targetStore && sourceStore.identity === targetStore.identity) {
    throw new UsageError(
      `--from and --to open the same store (${sourceStore.location}); point --to at another store`,
    );
  }

  const { memory: input } = await context.open("none", source);
  const { memory: output, provider } = await context.open("configured", target);
  const [sourceHealth, targetHealth] = await Promise.all([
    input.healthCheck(),
    output.healthCheck(),
  ]);
  const storedFingerprint = sourceHealth.vector.storedFingerprint;
  const copyEmbeddings =
    provider !== undefined &&
    storedFingerprint === provider.fingerprint &&
    (targetHealth.vector.storedFingerprint === undefined ||
      targetHealth.vector.storedFingerprint === provider.fingerprint);

  // The source's entry count (every namespace, superseded included: what export streams) comes
  // with its health check on every backend, so the bar shows a total, a rate and an ETA for free.
  const total = sourceHealth.entries;
  const progress = await createProgress(context.output, "migrate");
  const started = performance.now();
  let copied = 0;
  let skipped = 0;
  let read = 0;
  const rejected: MigrateRejection[] = [];
  let relationsCopied = 0;
  // Entries whose edges point at entries of a later batch: imported once more at the end, when
  // every entry is in (an export is oldest first, so an edge to a newer entry comes early).
  let retry: ImportEntry[] = [];
  const relationRejections = (
    batch: readonly ImportEntry[],
    report: Awaited<ReturnType<typeof output.importEntries>>,
    final: boolean,
  ) => {
    relationsCopied += report.relations?.imported ?? 0;
    const again = new Map<number, number>();
    for (const rejection of report.relations?.rejected ?? []) {
      if (!final && rejection.code === "NOT_FOUND") {
        again.set(rejection.index, (again.get(rejection.index) ?? 0) + 1);
        continue;
      }
      const entry = batch[rejection.index];
      rejected.push({
        namespace: entry?.namespace ?? "default",
        key: entry?.key ?? "?",
        code: rejection.code,
        message: rejection.message,
      });
    }
    for (const [index, missing] of again) {
      const entry = batch[index]!;
      // Its edges are all written (and counted) again by the final import.
      relationsCopied -= (entry.relations?.length ?? 0) - missing;
      retry.push(entry);
    }
  };
  const flush = async (batch: ImportEntry[]) => {
    if (batch.length === 0) return;
    const report = await output.importEntries(batch);
    relationRejections(batch, report, false);
    copied += report.imported;
    for (const rejection of report.rejected) {
      const entry = batch[rejection.index];
      rejected.push({
        namespace: entry?.namespace ?? "default",
        key: entry?.key ?? "?",
        code: rejection.code,
        message: rejection.message,
      });
    }
  };
  try {
    let batch: ImportEntry[] = [];
    for await (const entry of input.export({
      includeSuperseded: true,
      withEmbeddings: copyEmbeddings,
    })) {
      read += 1;
      // An entry with relations is always written again: an edge can change without its entry.
      if (
        entry.relations === undefined &&
        unchanged(entry, await output.get(entry.key, { namespace: entry.namespace }))
      ) {
        skipped += 1;
      } else {
        batch.push(toImport(entry, copyEmbeddings));
      }
      if (batch.length >= batchSize) {
        await flush(batch);
        batch = [];
      }
      progress.update(read, total === undefined ? undefined : Math.max(total, read));
    }
    await flush(batch);
    if (retry.length > 0) {
      const again = retry;
      retry = [];
      relationRejections(again, await output.importEntries(again), true);
    }
  } finally {
    progress.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(read / Math.max(seconds, 0.001));
  const pending = (await output.healthCheck()).pendingEmbeddings;
  if (rejected.length > 0) context.exitCode = EXIT_CODES.failure;

  const result = {
    from: source.location.file,
    to: target.location.file,
    read,
    total: total ?? null,
    seconds: Number(seconds.toFixed(3)),
    copied,
    unchanged: skipped,
    rejected,
    relationsCopied,
    embeddingsCopied: copyEmbeddings,
    pendingEmbeddings: pending,
  };
  context.output.result(result, () => {
    const lines = [
      `migrated ${read} entries from ${source.config.memory.backend} to ${target.config.memory.backend} in ${seconds.toFixed(1)} s (${rate} entries/s): ${copied} copied, ${skipped} already up to date, ${rejected.length} rejected`,
      copyEmbeddings
        ? `embeddings copied (${provider?.fingerprint})`
        : `embeddings not copied (source ${storedFingerprint ?? "has none"}, target ${provider?.fingerprint ?? "keyword-only"})`,
    ];
    if (pending > 0)
      lines.push(
        `${pending} entries wait for an embedding: run \`memory --config ${to} backfill\``,
      );
    for (const rejection of rejected.slice(0, 20)) {
      lines.push(
        `  rejected ${rejection.namespace}/${rejection.key}: ${rejection.code}: ${rejection.message}`,
      );
    }
    return lines;
  });
};

export default migrate;
