import {
  CONFLICT_RECORD_CANDIDATES,
  CONFLICT_RECORD_REASON_CHARS,
  type ConflictCandidate,
  type ConflictDecision,
  type ConflictRecord,
  type ConflictRecordCandidate,
  type SupersessionRecord,
} from "@memory/api";

/**
 * The one place that turns a conflict decision into the records kept with entries
 * (docs/history.md, "Why an entry was superseded"): the compact `conflictRecord` of the stored
 * entry and the `supersessionRecord` of each entry it superseded. Bounded: the first
 * {@link CONFLICT_RECORD_CANDIDATES} candidates (the decision sorts superseded ones first, then
 * by score), reasons cut at {@link CONFLICT_RECORD_REASON_CHARS} characters, and no evidence
 * scores beyond each candidate's `score`.
 */

function shortReason(reason: string | undefined): string | undefined {
  if (reason === undefined || reason.length <= CONFLICT_RECORD_REASON_CHARS) return reason;
  return `${reason.slice(0, CONFLICT_RECORD_REASON_CHARS - 1)}…`;
}

function recordCandidate(candidate: ConflictCandidate): ConflictRecordCandidate {
  const kept: ConflictRecordCandidate = {
    key: candidate.key,
    score: Math.round(candidate.score * 1000) / 1000,
    superseded: candidate.superseded,
  };
  if (candidate.flagged) kept.flagged = true;
  if (candidate.linked) kept.linked = true;
  if (candidate.reading) kept.reading = candidate.reading;
  if (candidate.rule !== undefined) kept.rule = candidate.rule;
  const reason = shortReason(candidate.reason ?? candidate.differentSubject);
  if (reason !== undefined) kept.reason = reason;
  if (candidate.decidedBy) kept.decidedBy = candidate.decidedBy;
  return kept;
}

/** The compact record of `decision`, made at `decidedAt`, kept with the stored entry. */
export function conflictRecordOf(decision: ConflictDecision, decidedAt: string): ConflictRecord {
  // Superseded and flagged candidates first, so the cap never drops a decision that acted.
  const acted = (candidate: ConflictCandidate) =>
    candidate.superseded || candidate.flagged === true || candidate.linked === true;
  const ordered = [
    ...decision.candidates.filter(acted),
    ...decision.candidates.filter((candidate) => !acted(candidate)),
  ];
  const record: ConflictRecord = {
    decidedAt,
    mode: decision.mode,
    superseded: [...decision.superseded],
    candidatesSeen: decision.candidates.length,
    candidates: ordered.slice(0, CONFLICT_RECORD_CANDIDATES).map(recordCandidate),
  };
  if (decision.policy) record.policy = decision.policy;
  if (decision.reading) record.reading = decision.reading;
  if (decision.fallback !== undefined) record.fallback = decision.fallback;
  if (decision.flagged) record.flagged = [...decision.flagged];
  if (decision.linked) record.linked = [...decision.linked];
  return record;
}

/** Why the entry `key` is superseded by `by`, as `decision` decided at `at`. */
export function conflictSupersessionRecord(
  decision: ConflictDecision,
  key: string,
  by: string,
  at: string,
): SupersessionRecord {
  const candidate = decision.candidates.find((item) => item.key === key);
  const record: SupersessionRecord = { by, at, decidedBy: candidate?.decidedBy ?? "rules" };
  if (candidate?.rule !== undefined) record.rule = candidate.rule;
  else if (decision.mode !== "rules") record.rule = `${decision.mode}-score`;
  const reason = shortReason(
    candidate?.reason ??
      (candidate ? `conflict score ${candidate.score.toFixed(3)} over the threshold` : undefined),
  );
  if (reason !== undefined) record.reason = reason;
  return record;
}

/**
 * The record of a supersession asked for through `markSuperseded` (`memory supersede`, the
 * HTTP and MCP routes, the curator's merges): not decided by conflict detection.
 */
export function manualSupersessionRecord(by: string, at: string): SupersessionRecord {
  return {
    by,
    at,
    decidedBy: "manual",
    reason:
      "marked superseded with supersede (an agent, a user or the curator), not by conflict detection",
  };
}

/** The record of a previous content a same-key store kept as a version of `key`. */
export function versionSupersessionRecord(key: string, at: string): SupersessionRecord {
  return {
    by: key,
    at,
    decidedBy: "version",
    reason: `a store of ${JSON.stringify(key)} replaced this content; it is kept as a version (history)`,
  };
}
