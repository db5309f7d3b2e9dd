import {
  type ImportEntry,
  type ImportRejection,
  type MemoryEntry,
  normalizeFilter,
} from "@memory/api";
import { canUse, resolveNamespace, visibleNamespaces } from "../access.js";
import { defined } from "../defined.js";
import { ImportEntrySchema } from "../wire/requests.js";
import { type FilterInput, filterFrom, type OperationScope } from "./operation-scope.js";

export interface ExportInput extends FilterInput {
  /** Omitted: every namespace the caller may use. */
  namespace?: string | undefined;
  withEmbeddings?: boolean | undefined;
}

/**
 * The entries to export, oldest first, one source per namespace. The filter is validated here,
 * before anything is streamed: a bad filter is an error, not an error line in a stream.
 */
export function exportEntries(
  input: ExportInput,
  { memory, access }: OperationScope,
): AsyncIterable<MemoryEntry>[] {
  const filter = defined({ ...filterFrom(input), withEmbeddings: input.withEmbeddings });
  normalizeFilter(
    input.namespace === undefined ? filter : { ...filter, namespace: input.namespace },
    { allNamespacesByDefault: true, includeSupersededByDefault: true },
  );
  if (input.namespace !== undefined)
    return [memory.export({ ...filter, namespace: resolveNamespace(access, input.namespace) })];
  const visible = visibleNamespaces(access);
  if (visible === undefined) return [memory.export(filter)];
  return visible.map((name) => memory.export({ ...filter, namespace: name }));
}

export interface ImportReport {
  imported: number;
  /** Every rejected line, by its 0-based position among the lines given. */
  rejected: ImportRejection[];
}

/**
 * Imports entries given as JSON text, one per item (NDJSON lines). Items that are not valid
 * JSON, do not match the schema, or name a namespace the caller may not use are rejected one by
 * one; the rest is imported. Entries without a namespace go to the caller's default namespace.
 */
export async function importEntries(
  lines: AsyncIterable<string>,
  { memory, access, signal }: OperationScope,
): Promise<ImportReport> {
  const rejected: ImportRejection[] = [];
  // Position in what the backend sees -> position in the input, to report rejections by line.
  const positions: number[] = [];
  async function* entries(): AsyncGenerator<ImportEntry> {
    let index = 0;
    for await (const line of lines) {
      const position = index++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        rejected.push({
          index: position,
          code: "INVALID_INPUT",
          message: `Not valid JSON: ${(error as Error).message}`,
        });
        continue;
      }
      const parsed = ImportEntrySchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        rejected.push({
          index: position,
          code: "INVALID_INPUT",
          message: `${issue?.path.join(".") || "entry"}: ${issue?.message ?? "invalid"}`,
        });
        continue;
      }
      const namespace = parsed.data.namespace ?? access.defaultNamespace;
      if (!canUse(access, namespace)) {
        rejected.push({
          index: position,
          key: parsed.data.key,
          code: "FORBIDDEN",
          message: `This token may not use namespace "${namespace}".`,
        });
        continue;
      }
      positions.push(position);
      yield defined({ ...parsed.data, namespace });
    }
  }
  const report = await memory.importEntries(entries(), defined({ signal }));
  const all = [
    ...rejected,
    ...report.rejected.map((rejection) => ({
      ...rejection,
      index: positions[rejection.index] ?? rejection.index,
    })),
  ].sort((a, b) => a.index - b.index);
  const relations = report.relations && {
    imported: report.relations.imported,
    rejected: report.relations.rejected.map((rejection) => ({
      ...rejection,
      index: positions[rejection.index] ?? rejection.index,
    })),
  };
  return { imported: report.imported, rejected: all, ...(relations ? { relations } : {}) };
}
