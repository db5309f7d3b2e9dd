/**
 * Markdown tables of the agent-loop evaluation, one row per embedder x clock: the benchmark and
 * `memory eval --agent-loop` print the same tables (the CLI names its embedder by fingerprint).
 */
import type { FollowUpRates } from "./follow-up-measure.js";
import type { LifeRates } from "./life-measure.js";
import type { AgentLoopEvalResult } from "./run-agent-loop-eval.js";

export type ModeResult = Pick<
  AgentLoopEvalResult,
  "clock" | "seconds" | "locomo" | "locomoLoop" | "life" | "followUps"
> & {
  /** `local`, `none`, or the CLI's embedder fingerprint. */
  embedder: string;
};

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const num = (value: number, digits = 1) => value.toFixed(digits);

function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}

export function locomoTable(results: ModeResult[]): string {
  return table(
    [
      "embedder",
      "clock",
      "answerable",
      "evidence in context (any)",
      "evidence share",
      "top-5 recall (any)",
      "empty context",
      "entries",
      "chars",
      "noise",
      "own replies",
      "contentless",
      "contexts with contentless",
      "cat 5 non-empty",
      "never heard non-empty",
    ],
    results.map(({ embedder, clock, locomo: s }) => [
      embedder,
      clock,
      String(s.answerable),
      pct(s.evidenceAny),
      pct(s.evidenceShare),
      pct(s.top5EvidenceAny),
      pct(s.emptyContext),
      num(s.meanEntries, 2),
      num(s.meanCharacters, 0),
      pct(s.noiseShare),
      pct(s.noiseAssistantShare),
      pct(s.contentlessShare),
      pct(s.contextsWithContentless),
      `${pct(s.adversarialNonEmpty)} (n=${s.adversarial})`,
      `${pct(s.neverHeardNonEmpty)} (n=${s.neverHeard})`,
    ]),
  );
}

export function loopTable(results: ModeResult[]): string {
  return table(
    ["embedder", "clock", "contexts built in the loop", "non-empty", "entries", "chars", "seconds"],
    results.map(({ embedder, clock, locomoLoop: l, seconds }) => [
      embedder,
      clock,
      String(l.contexts),
      pct(l.contexts === 0 ? 0 : l.nonEmpty / l.contexts),
      num(l.contexts === 0 ? 0 : l.entries / l.contexts, 2),
      num(l.contexts === 0 ? 0 : l.characters / l.contexts, 0),
      num(seconds, 0),
    ]),
  );
}

function lifeCells(r: LifeRates): string[] {
  return [pct(r.current), pct(r.stale), pct(r.otherFirst), pct(r.ownReplyShare), pct(r.empty)];
}

export function lifeTable(results: ModeResult[]): string {
  const rows: string[][] = [];
  for (const { embedder, clock, life } of results) {
    for (const [questions, group] of [
      ["changed", life.changed],
      ["all", life.all],
    ] as const) {
      rows.push([
        embedder,
        clock,
        `${questions} (${group.context.questions})`,
        "context",
        ...lifeCells(group.context),
      ]);
      rows.push([
        embedder,
        clock,
        `${questions} (${group.top5.questions})`,
        "top-5 recall",
        ...lifeCells(group.top5),
      ]);
    }
  }
  return table(
    [
      "embedder",
      "clock",
      "questions",
      "through",
      "current fact present",
      "stale version present",
      "other person's fact first",
      "own replies (share of entries)",
      "empty",
    ],
    rows,
  );
}

function followUpCells(r: FollowUpRates): string[] {
  return [pct(r.evidenceAny), pct(r.evidenceShare), pct(r.empty), num(r.meanEntries, 2)];
}

/** Follow-ups (follow-ups.ts): the question as asked, the follow-up alone, and with its session. */
export function followUpTable(results: ModeResult[]): string {
  const rows: string[][] = [];
  for (const { embedder, clock, followUps: f } of results) {
    rows.push([embedder, clock, `named question (${f.followUps})`, ...followUpCells(f.named), "-"]);
    rows.push([embedder, clock, "follow-up, no session", ...followUpCells(f.alone), "-"]);
    rows.push([
      embedder,
      clock,
      "follow-up, with session",
      ...followUpCells(f.multiTurn),
      pct(f.multiTurn.openerInContext),
    ]);
  }
  return table(
    [
      "embedder",
      "clock",
      "asked as",
      "evidence in context (any)",
      "evidence share",
      "empty context",
      "entries",
      "opener in context",
    ],
    rows,
  );
}

/** The four sections, in the order both the benchmark and the CLI print them. */
export function agentLoopReport(
  results: ModeResult[],
  run: { conversations: string[]; lifeSessions: number; lifeQuestions: number },
): string {
  const first = results[0]?.followUps;
  const skipped = first
    ? `; not derived: ${first.skipped.noSpeakerNamed} name no speaker, ${first.skipped.bothSpeakersNamed} name both`
    : "";
  return [
    `LoCoMo (${run.conversations.join(", ")}; categories 1-4 answerable):`,
    "",
    locomoTable(results),
    "",
    "Contexts built before each user message during the replay:",
    "",
    loopTable(results),
    "",
    `Follow-ups ("Let's talk about <speaker>." then the question with "they"/"them"/"their"${skipped}):`,
    "",
    followUpTable(results),
    "",
    `Scripted life (${run.lifeSessions} sessions, ${run.lifeQuestions} questions):`,
    "",
    lifeTable(results),
  ].join("\n");
}
