import type { Explain, RecallTrace } from "./api.js";
import { entryHref, formatNumber, h, preview } from "./dom.js";

/** `under_threshold` -> "under threshold": the reason codes read as words. */
function reasonText(reason: string | undefined): string {
  return reason === undefined ? "dropped" : reason.replaceAll("_", " ");
}

/**
 * "Why not?": the candidates the recall dropped, each with its reason, the numbers behind it
 * and every part of its score, then the settings the recall ran with.
 */
export function whyNotSection(
  trace: RecallTrace,
  explainParts: (explain: Explain, score: number) => HTMLElement,
): HTMLElement {
  const dropped = trace.candidates.filter((candidate) => !candidate.kept);
  const settings = trace.settings;
  const summary = [
    `mode ${settings.mode}`,
    `${settings.mergeStrategy} (keyword ${formatNumber(settings.weights.keyword, 2)}, vector ${formatNumber(settings.weights.vector, 2)})`,
    `minimum score ${formatNumber(settings.minScore, 2)}`,
    `limit ${settings.limit} (pool ${settings.pool})`,
    `half-life ${formatNumber(settings.halfLifeDays, 1)} days`,
    `cosine ${formatNumber(settings.vectorCalibration.floor, 2)}–${formatNumber(settings.vectorCalibration.full, 2)}`,
  ].join(" · ");
  return h(
    "section",
    { "aria-label": "Why not", class: "why-not" },
    h("h2", {}, `Why not? ${dropped.length} dropped candidate${dropped.length === 1 ? "" : "s"}`),
    h("p", { class: "muted" }, summary),
    h(
      "p",
      { class: "muted" },
      trace.stages
        .map((stage) => `${stage.name} ${stage.count}${stage.detail ? ` (${stage.detail})` : ""}`)
        .join(" · "),
    ),
    dropped.length === 0
      ? h("p", {}, "Nothing was dropped: every candidate is in the results.")
      : h(
          "ol",
          { class: "results dropped" },
          ...dropped.map((candidate) =>
            h(
              "li",
              {},
              h(
                "p",
                {},
                h(
                  "a",
                  { href: entryHref(candidate.namespace, candidate.key), class: "key" },
                  candidate.key,
                ),
                h("span", { class: "tag" }, ` ${candidate.category}`),
                h("strong", { class: "reason" }, ` ${reasonText(candidate.reason)}`),
                ` score ${formatNumber(candidate.score)}`,
              ),
              candidate.detail ? h("p", { class: "detail" }, candidate.detail) : null,
              h("p", { class: "muted" }, preview(candidate.preview, 240)),
              explainParts(candidate.explain, candidate.score),
            ),
          ),
        ),
  );
}
