import type { ConflictDecision, FactReading, MemoryEntry, SupersessionRecord } from "@memory/api";
import { shellQuote } from "../mcp/client-config.js";

/** "@user · lives_in (single) = Munich [change]": how the rules read a fact. */
export function describeReading(reading: FactReading | undefined): string {
  if (reading === undefined) return "not read";
  if (reading.subject === undefined) return `not read (${reading.note ?? "no subject"})`;
  const cardinality = reading.cardinality === undefined ? "" : ` (${reading.cardinality})`;
  const value = reading.value === undefined ? "" : ` = ${reading.value}`;
  const markers = [...(reading.negated ? ["negated"] : []), ...reading.markers];
  const marked = markers.length === 0 ? "" : ` [${markers.join(", ")}]`;
  return `${reading.subject} · ${reading.attribute ?? "?"}${cardinality}${value}${marked}`;
}

/**
 * The lines `memory store` prints for a conflict decision: how the new entry was read, then each
 * candidate that was superseded (or flagged), and the others that came close (same subject),
 * each with the rule and its reason. Candidates about other subjects are counted, not listed.
 */
export function describeConflict(decision: ConflictDecision | undefined): string[] {
  if (decision === undefined) return [];
  if (decision.mode !== "rules") {
    return decision.candidates
      .filter((candidate) => candidate.superseded)
      .map(
        (candidate) =>
          `superseded ${candidate.key} (score ${candidate.score.toFixed(2)} > ${decision.threshold}; ${decision.fallback ?? decision.mode})`,
      );
  }
  const lines = [`read as: ${describeReading(decision.reading)}`];
  let others = 0;
  for (const candidate of decision.candidates) {
    const verb = candidate.superseded
      ? "superseded"
      : candidate.linked
        ? "contradicts (both kept, related)"
        : candidate.flagged
          ? "flagged"
          : "kept";
    if (
      verb === "kept" &&
      (candidate.rule === "different-subjects" || candidate.rule === "not-read")
    ) {
      others++;
      continue;
    }
    const by = candidate.decidedBy === "chat" ? ", confirmed by the chat model" : "";
    lines.push(`${verb} ${candidate.key}: ${candidate.reason ?? candidate.rule ?? ""}${by}`);
    lines.push(`  read as: ${describeReading(candidate.reading)}`);
  }
  if (others > 0) lines.push(`${others} other candidate(s) about other subjects, kept`);
  if (decision.confirmation?.failure !== undefined) {
    lines.push(`chat confirmation failed, the rules decided: ${decision.confirmation.failure}`);
  }
  return lines;
}

/**
 * The line `memory store` prints when a same-key store kept the previous content: where it is
 * and the command that shows it (nothing when nothing was kept).
 */
export function describeKeptVersion(entry: MemoryEntry): string[] {
  if (entry.keptVersion === undefined) return [];
  const namespace =
    entry.namespace === "default" ? "" : ` --namespace ${shellQuote(entry.namespace)}`;
  return [
    `kept the previous version as ${entry.keptVersion}; see it with: memory history ${shellQuote(entry.key)}${namespace}`,
  ];
}

/**
 * "superseded by diet-2 on <time> (negated: ...)": why an entry is superseded, from its
 * `supersessionRecord` (`memory get`) or its recall `explain.superseded` (`memory recall --explain`).
 */
export function describeSupersession(
  supersededBy: string,
  why: Partial<Pick<SupersessionRecord, "at" | "decidedBy" | "rule" | "reason">> & {
    by: string;
  } = { by: supersededBy },
): string {
  if (why.by !== supersededBy) return `superseded by ${supersededBy}`;
  const rule = why.rule ?? why.decidedBy;
  const reason = why.reason === undefined ? "" : `: ${why.reason}`;
  const when = why.at === undefined ? "" : ` on ${why.at}`;
  return `superseded by ${supersededBy}${when}${rule === undefined ? "" : ` (${rule}${reason})`}`;
}
