import type { MemoryEntry } from "@memory/api";
import type { Style } from "../../output/style.js";
import { describeSupersession } from "./describe-conflict.js";

/** `key [category, namespace ns, session s, importance 0.8]` for human output. */
export function entryHeadline(entry: MemoryEntry, style: Style): string {
  const facts = [entry.category];
  if (entry.namespace !== "default") facts.push(`namespace ${entry.namespace}`);
  if (entry.sessionId !== undefined) facts.push(`session ${entry.sessionId}`);
  if (entry.importance !== undefined) facts.push(`importance ${entry.importance}`);
  if (entry.supersededBy !== undefined) facts.push(`superseded by ${entry.supersededBy}`);
  if (entry.pinned) facts.push("pinned");
  if (entry.snoozedUntil !== undefined) facts.push(`snoozed until ${entry.snoozedUntil}`);
  return `${style.bold(entry.key)} ${style.dim(`[${facts.join(", ")}]`)}`;
}

/** The full human view of one entry (`memory get`). */
export function entryDetails(entry: MemoryEntry, style: Style): string[] {
  const why =
    entry.supersededBy === undefined
      ? []
      : [style.dim(describeSupersession(entry.supersededBy, entry.supersessionRecord))];
  return [
    entryHeadline(entry, style),
    style.dim(`id ${entry.id} · created ${entry.createdAt} · updated ${entry.updatedAt}`),
    ...why,
    "",
    entry.content,
  ];
}
