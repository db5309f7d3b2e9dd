import {
  RECALL_DROP_REASONS,
  type RecallTrace,
  type RecallTraceCandidate,
  type RecallTraceSettings,
} from "@memory/api";
import type { MemoryContextTrace } from "@memory/lifecycle";
import type { Style } from "../../output/style.js";
import { singleLine, truncate } from "../../output/table.js";
import { explainLine } from "../recall.js";

const number = (value: number) => String(Number(value.toFixed(4)));

/** The numbers a recall ran with, on two lines. */
export function settingsLines(settings: RecallTraceSettings, style: Style): string[] {
  const { weights, vectorCalibration: calibration, intentWeights: intent } = settings;
  return [
    style.dim(
      `settings: mode ${settings.mode} · ${settings.mergeStrategy} (keyword ${number(weights.keyword)}, vector ${number(weights.vector)}${settings.mergeStrategy === "rrf" ? `, k ${settings.rrfK}` : ""}) · minScore ${number(settings.minScore)} · limit ${settings.limit} (pool ${settings.pool}) · half-life ${number(settings.halfLifeDays)} days`,
    ),
    style.dim(
      `          cosine ${number(calibration.floor)} -> relevance 0, ${number(calibration.full)} -> 1 · question penalty ${number(intent.questionPenalty)}, temporal boost ${number(intent.temporalBoost)}, speaker boost ${number(intent.speakerBoost)} · context neighbour ${number(settings.contextWeights.neighbor)}, session ${number(settings.contextWeights.session)} · early return ${number(settings.ftsEarlyReturnScore)}`,
    ),
  ];
}

/** `kept`/`dropped (reason: detail)`, the entry and its factors. */
export function candidateLines(
  candidate: RecallTraceCandidate,
  style: Style,
  width: number,
): string[] {
  const verdict = candidate.kept
    ? style.green("kept")
    : style.yellow(
        `dropped, ${candidate.reason ? (RECALL_DROP_REASONS[candidate.reason] ?? candidate.reason) : "no reason"}`,
      );
  const facts = [candidate.category];
  if (candidate.sessionId !== undefined) facts.push(`session ${candidate.sessionId}`);
  return [
    `${style.bold(candidate.key)} ${style.dim(`[${facts.join(", ")}]`)} ${verdict} ${style.dim(`score ${number(candidate.score)}`)}`,
    ...(candidate.detail ? [`   ${style.dim(candidate.detail)}`] : []),
    `   ${truncate(singleLine(candidate.preview), width)}`,
    `   ${explainLine(candidate.explain, style)}`,
  ];
}

/** The whole trace of one recall, or, with `key`, the one key's verdict and factors. */
export function recallTraceLines(trace: RecallTrace, style: Style, width: number): string[] {
  const dropped = trace.candidates.filter((candidate) => !candidate.kept).length;
  const head = `explain ${JSON.stringify(trace.query)} in namespace ${trace.namespace}: ${trace.results.length} result(s), ${dropped} dropped candidate(s)`;
  const intent = trace.intent;
  const lines = [
    head,
    ...settingsLines(trace.settings, style),
    style.dim(
      `query: terms ${intent.terms.join(", ") || "(none)"}${intent.question ? " · a question" : ""}${intent.when ? " · asks when" : ""}`,
    ),
    style.dim(
      `stages: ${trace.stages.map((stage) => `${stage.name} ${stage.count}${stage.detail ? ` (${stage.detail})` : ""}`).join(" · ")}`,
    ),
  ];
  if (trace.degraded) lines.push(style.yellow(`degraded: ${trace.degraded}`));
  if (trace.focus) {
    lines.push("", trace.focus.verdict);
    const focused = trace.focus.candidate;
    if (focused) lines.push(...candidateLines(focused, style, width));
    else if (trace.focus.exists)
      lines.push(
        style.dim(
          `   alone: keyword relevance ${trace.focus.keywordRelevance === undefined ? "-" : number(trace.focus.keywordRelevance)} · cosine ${trace.focus.cosine === undefined ? "-" : number(trace.focus.cosine)} · vector relevance ${trace.focus.vectorRelevance === undefined ? "-" : number(trace.focus.vectorRelevance)}`,
        ),
      );
    return lines;
  }
  lines.push("");
  if (trace.candidates.length === 0) lines.push("no candidates: no stage found anything");
  for (const candidate of trace.candidates) lines.push(...candidateLines(candidate, style, width));
  return lines;
}

/** The memory context's trace: its settings, the recalls it ran, every entry with its fate. */
export function contextTraceLines(
  trace: MemoryContextTrace,
  style: Style,
  width: number,
  key: string | undefined,
): string[] {
  const s = trace.settings;
  const kept = trace.candidates.filter((candidate) => candidate.kept).length;
  const lines = [
    `explain the memory context for ${JSON.stringify(trace.message)}: ${kept} in the block, ${trace.candidates.length - kept} left out`,
    style.dim(
      `context: limit ${s.limit} · minScore ${number(s.minScore)} (relevance before decay) · coreLimit ${s.coreLimit} · maxChars ${s.maxChars} · conversation ${s.includeConversation ? "in" : "out"} · replies ${s.includeReplies ? "in" : "out"} · questions ${s.includeQuestions ? "in" : "out"}`,
    ),
  ];
  if (trace.discoveryQuery)
    lines.push(style.dim(`discovery query: ${singleLine(trace.discoveryQuery)}`));
  const first = trace.recalls[0]?.trace;
  if (first) lines.push(...settingsLines(first.settings, style));
  for (const { purpose, trace: recall } of trace.recalls)
    lines.push(
      style.dim(
        `recall (${purpose}): ${recall.results.length} result(s) · ${recall.stages.map((stage) => `${stage.name} ${stage.count}`).join(" · ")}`,
      ),
    );
  lines.push("");
  const shown =
    key === undefined
      ? trace.candidates
      : trace.candidates.filter((candidate) => candidate.key === key);
  if (key !== undefined && shown.length === 0)
    lines.push(
      `${JSON.stringify(key)} is not in the block: no recall of the context found it (try \`memory explain --key\` without --context)`,
    );
  for (const candidate of shown) lines.push(...candidateLines(candidate, style, width));
  return lines;
}
