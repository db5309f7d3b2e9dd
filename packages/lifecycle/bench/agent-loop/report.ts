/** Markdown tables of the agent-loop benchmark, one row per embedder x clock. */
import type { LifeRates, LifeSummary } from "./life-measure.js";
import type { LocomoSummary } from "./locomo-measure.js";
import type { LoopContextStats } from "./replay.js";

export interface ModeResult {
  embedder: "local" | "none";
  clock: "wall" | "dated";
  seconds: number;
  /** How the entries returned were matched to the message they came from (origins.ts). */
  originLookups: { byKey: number; byContent: number; unknown: number };
  conversations: string[];
  locomo: LocomoSummary;
  locomoLoop: LoopContextStats;
  life: LifeSummary;
}

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
