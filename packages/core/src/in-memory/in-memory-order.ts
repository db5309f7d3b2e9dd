import type { ScanOrder } from "@memory/api";
import type { StoredRow } from "./in-memory-store.js";

type Compare = (a: StoredRow, b: StoredRow) => number;

const byKey: Compare = (a, b) =>
  a.entry.key < b.entry.key ? -1 : a.entry.key > b.entry.key ? 1 : 0;

const byNewest: Compare = (a, b) =>
  a.entry.updatedAt < b.entry.updatedAt
    ? 1
    : a.entry.updatedAt > b.entry.updatedAt
      ? -1
      : byKey(a, b) || (a.entry.namespace < b.entry.namespace ? -1 : 1);

const byOldest: Compare = (a, b) =>
  a.entry.createdAt < b.entry.createdAt
    ? -1
    : a.entry.createdAt > b.entry.createdAt
      ? 1
      : a.entry.id < b.entry.id
        ? -1
        : 1;

/** The comparator of a scan order (ties: key, then namespace; export: id). */
export function compareFor(order: ScanOrder): Compare {
  if (order.by === "newest") return byNewest;
  if (order.by === "oldest") return byOldest;
  const importance = (row: StoredRow) => row.entry.importance ?? order.unsetImportance;
  return (a, b) => importance(b) - importance(a) || byNewest(a, b);
}
