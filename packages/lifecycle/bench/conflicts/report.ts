import { PAIR_CLASSES } from "./dataset.js";
import type { PairMetrics, SplitMetrics } from "./pair-metrics.js";
import type { ScenarioOutcome } from "./scenario-run.js";

/** One embedder's results, as written to `--out` and printed as Markdown. */
export interface EmbedderResult {
  embedder: string;
  seconds: number;
  splits: SplitMetrics[];
  scenario: ScenarioOutcome | undefined;
}

const ratio = (value: number | null) => (value === null ? "–" : value.toFixed(3));
const cells = (metrics: PairMetrics) =>
  `${metrics.pairs} | ${ratio(metrics.precision)} | ${ratio(metrics.recall)} | ${metrics.falseSupersessions}`;

/** Per class: pairs, precision, recall (on expect=supersede) and false supersessions, one column group per split. */
export function pairsTable(result: EmbedderResult): string {
  const header = result.splits.map((split) => `${split.split}: pairs | P | R | FS`).join(" | ");
  const rule = result.splits.map(() => "---:|---:|---:|---:").join("|");
  const rows = PAIR_CLASSES.map(
    (name) =>
      `| ${name} | ${result.splits.map((split) => cells(split.byClass[name])).join(" | ")} |`,
  );
  const total = `| **all classes** | ${result.splits.map((split) => cells(split.total)).join(" | ")} |`;
  return [`| class | ${header} |`, `|---|${rule}|`, ...rows, total].join("\n");
}

export function summaryTable(results: EmbedderResult[]): string {
  const lines = [
    "| embedder | split | pairs | precision | recall | TP | FP | FN | other facts superseded |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const result of results) {
    for (const split of result.splits) {
      const total = split.total;
      lines.push(
        `| ${result.embedder} | ${split.split} | ${total.pairs} | ${ratio(total.precision)} | ${ratio(total.recall)} | ${total.truePositives} | ${total.falsePositives} | ${total.falseNegatives} | ${total.othersSuperseded} |`,
      );
    }
  }
  return lines.join("\n");
}

/** The long-store scenario: one row per embedder (it has no splits). */
export function longStoreTable(results: EmbedderResult[]): string {
  const lines = [
    "| embedder | facts | false supersessions (while storing facts / during updates) | updates that superseded their target | questions whose first result is current |",
    "|---|---:|---:|---:|---:|",
  ];
  for (const { embedder, scenario } of results) {
    if (scenario === undefined) continue;
    const byPhase = (phase: "facts" | "updates") =>
      scenario.falseSupersessions.filter((item) => item.phase === phase).length;
    const hits = scenario.questions.filter((question) => question.hit).length;
    lines.push(
      `| ${embedder} | ${scenario.facts} | ${scenario.falseSupersessions.length} (${byPhase("facts")} / ${byPhase("updates")}) | ${scenario.updatesHit} of ${scenario.targetedUpdates} | ${hits} of ${scenario.questions.length} |`,
    );
  }
  return lines.join("\n");
}
