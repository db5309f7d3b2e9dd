import type { Column } from "../output/table.js";
import { renderTable } from "../output/table.js";
import type { EvalDataset } from "./eval-dataset.js";
import { type AggregateScores, EVAL_KS, type EvalMetrics } from "./eval-scorer.js";

/** What `memory eval` prints: `--json` prints it as is; otherwise `renderEvalReport`. */
export interface EvalReport {
  format: EvalDataset["format"];
  sources: string[];
  backend: string;
  /** The embedding provider's fingerprint; null: keyword-only. */
  embedder: string | null;
  embedderReason: string;
  mode: string;
  limit: number;
  ks: readonly number[];
  dataset: EvalDataset["stats"] & { imported: number };
  metrics: EvalMetrics;
  category_names: Record<string, string>;
  timing: {
    wall_ms: number;
    ingest_ms: number;
    recall_ms: number;
    latency_ms_mean: number | null;
    latency_ms_p50: number | null;
    latency_ms_p95: number | null;
  };
  /** With `--per-question`: each question's keys and scores. */
  questions?: unknown[];
}

const percent = (value: number | null) => (value === null ? "-" : (100 * value).toFixed(1));
const fixed = (value: number | null, digits: number) =>
  value === null ? "-" : value.toFixed(digits);

interface Row {
  label: string;
  scores: AggregateScores;
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The human report: one row per category, then overall (and all, when they differ). */
export function renderEvalReport(report: EvalReport, excluded: string[]): string[] {
  const rows: Row[] = Object.entries(report.metrics.by_category).map(([category, scores]) => ({
    label: report.category_names[category]
      ? `${category} ${report.category_names[category]}`
      : category,
    scores,
  }));
  if (excluded.length > 0) {
    rows.push({
      label: `overall (without ${excluded.join(", ")})`,
      scores: report.metrics.overall,
    });
    rows.push({ label: "all", scores: report.metrics.all });
  } else {
    rows.push({ label: "overall", scores: report.metrics.overall });
  }
  const columns: Column<Row>[] = [
    { header: "category", value: (row) => row.label },
    { header: "n", value: (row) => String(row.scores.n) },
    ...EVAL_KS.map((k) => ({
      header: `R@${k}`,
      value: (row: Row) => percent(row.scores[`recall@${k}`]),
    })),
    ...EVAL_KS.map((k) => ({
      header: `hit@${k}`,
      value: (row: Row) => percent(row.scores[`hit@${k}`]),
    })),
    { header: "MRR", value: (row) => fixed(row.scores.mrr, 3) },
  ];
  const { dataset, timing } = report;
  const what =
    report.format === "locomo"
      ? `LoCoMo, ${dataset.namespaces} ${dataset.namespaces === 1 ? "conversation" : "conversations"}`
      : `${dataset.namespaces} ${dataset.namespaces === 1 ? "namespace" : "namespaces"}`;
  const skipped =
    dataset.skippedWithoutEvidence > 0
      ? ` (${dataset.skippedWithoutEvidence} without expected keys skipped)`
      : "";
  return [
    `${what}: ${dataset.memories} ${dataset.memories === 1 ? "memory" : "memories"}, ${dataset.questions} ${dataset.questions === 1 ? "question" : "questions"}${skipped}`,
    `${report.backend} (temporary store, deleted) · ${report.embedder ?? "no embedder (keyword-only)"} · mode ${report.mode} · top ${report.limit} · R@k and hit@k in %`,
    "",
    ...renderTable(rows, columns),
    "",
    `ingest ${seconds(timing.ingest_ms)} · recall p50 ${fixed(timing.latency_ms_p50, 1)} ms, p95 ${fixed(timing.latency_ms_p95, 1)} ms · total ${seconds(timing.wall_ms)}`,
  ];
}
