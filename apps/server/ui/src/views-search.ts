import { type Entry, type Explain, type RecallTrace, request } from "./api.js";
import type { ViewContext } from "./app.js";
import { entryHref, formatNumber, h, preview } from "./dom.js";
import { whyNotSection } from "./views-why-not.js";

function meter(value: number | undefined, label: string): HTMLElement | null {
  if (value === undefined) return null;
  return h("meter", {
    min: 0,
    max: 1,
    value: Math.max(0, Math.min(1, value)),
    "aria-label": label,
  });
}

function part(name: string, text: string, value?: number): HTMLElement[] {
  return [h("dt", {}, name), h("dd", {}, meter(value, name), h("span", {}, text))];
}

/** What pins and use did to the ranking (docs/usage.md), as the fused part's adjustments. */
function usageAdjustments(usage: Explain["usage"]): string[] {
  if (!usage) return [];
  return [
    usage.pinned
      ? `pinned${usage.boost !== undefined ? ` + ${formatNumber(usage.boost)}` : ""}`
      : usage.boost !== undefined
        ? `usage ${usage.boost >= 0 ? "+" : "−"} ${formatNumber(Math.abs(usage.boost))}`
        : "",
    usage.halfLifeFactor !== undefined
      ? `half-life × ${formatNumber(usage.halfLifeFactor, 2)} for being used`
      : "",
  ];
}

/** Every part of the score as labelled text, so a person sees why a result ranked where it did. */
function whyItRanked(explain: Explain | undefined, score: number | undefined, threshold: string) {
  if (!explain) return h("section", { "aria-label": "Why it ranked" }, "No explain returned.");
  const keyword =
    explain.keywordRank === undefined && explain.keywordRelevance === undefined
      ? "not matched by keyword"
      : `rank ${explain.keywordRank !== undefined ? explain.keywordRank + 1 : "–"}, BM25 ${formatNumber(explain.keywordScore, 2)}, relevance ${formatNumber(explain.keywordRelevance)}`;
  const vector =
    explain.vectorRank === undefined && explain.cosine === undefined
      ? explain.degraded
        ? `did not run: ${explain.degraded}`
        : explain.earlyReturn
          ? "skipped: keyword hits were decisive"
          : "not matched by vector"
      : `rank ${explain.vectorRank !== undefined ? explain.vectorRank + 1 : "–"}, cosine ${formatNumber(explain.cosine)}, relevance ${formatNumber(explain.vectorRelevance)}`;
  const adjustments = [
    explain.intent !== undefined ? `intent × ${formatNumber(explain.intent)}` : "",
    explain.context !== undefined ? `context + ${formatNumber(explain.context)}` : "",
    ...usageAdjustments(explain.usage),
  ].filter((text) => text !== "");
  const fused = `${formatNumber(explain.fused)} (${[
    explain.source,
    explain.strategy,
    explain.rrf !== undefined ? `rrf ${formatNumber(explain.rrf, 4)}` : undefined,
    ...adjustments,
  ]
    .filter(Boolean)
    .join(", ")})`;
  return h(
    "section",
    { "aria-label": "Why it ranked", class: "why" },
    h(
      "dl",
      {},
      ...part("keyword", keyword, explain.keywordRelevance),
      ...part("vector", vector, explain.vectorRelevance),
      ...part("fused", fused, explain.fused),
      ...part(
        "decay",
        `× ${formatNumber(explain.decay)}${explain.decay === 1 ? " (no decay)" : ""}`,
        explain.decay,
      ),
      ...part(
        "importance",
        explain.importance === undefined ? "not set" : formatNumber(explain.importance, 2),
        explain.importance,
      ),
      ...part("score", `${formatNumber(score)} = fused × decay; threshold ${threshold}`, score),
    ),
  );
}

/** Where a collection's result comes from: the note, its lines and title. */
function sourceLine(entry: Entry): HTMLElement | null {
  const source = entry.source;
  if (!source?.collection) return null;
  const title = source.title ? ` “${source.title}”` : "";
  return h(
    "p",
    { class: "source" },
    `${source.collection}: ${source.path}:${source.startLine}-${source.endLine}${title}`,
  );
}

export function searchView({ root, namespace, params }: ViewContext): void {
  const queryField = h("input", {
    id: "query",
    name: "query",
    type: "search",
    value: params.get("q") ?? "",
  });
  const mode = h(
    "select",
    { id: "mode", name: "mode" },
    ...["hybrid", "bm25", "embedding"].map((name) => h("option", { value: name }, name)),
  );
  const limit = h("input", { id: "limit", type: "number", min: 1, max: 100, value: 10 });
  const minScore = h("input", {
    id: "min-score",
    type: "number",
    min: 0,
    max: 1,
    step: 0.05,
    placeholder: "server default",
  });
  const superseded = h("input", { id: "search-superseded", type: "checkbox" });
  const whyNot = h("input", { id: "search-why-not", type: "checkbox" });
  const snoozed = h("input", { id: "search-snoozed", type: "checkbox" });
  const form = h(
    "form",
    { class: "filters", role: "search" },
    h("div", { class: "field grow" }, h("label", { for: "query" }, "Query"), queryField),
    h("div", { class: "field" }, h("label", { for: "mode" }, "Mode"), mode),
    h("div", { class: "field" }, h("label", { for: "limit" }, "Limit"), limit),
    h("div", { class: "field" }, h("label", { for: "min-score" }, "Minimum score"), minScore),
    h("label", { for: "search-superseded", class: "check" }, superseded, " Include superseded"),
    h("label", { for: "search-snoozed", class: "check" }, snoozed, " Include snoozed"),
    h("label", { for: "search-why-not", class: "check" }, whyNot, " Why not?"),
    h("button", { type: "submit" }, "Search"),
  );
  const results = h("div", {});
  root.replaceChildren(
    h("section", { "data-view": "search" }, h("h1", {}, `Search ${namespace}`), form, results),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    results.replaceChildren(h("p", { class: "muted" }, "Searching…"));
    const threshold = minScore.value === "" ? "server default (min_score)" : minScore.value;
    const body = {
      query: queryField.value,
      namespace,
      mode: mode.value,
      limit: Number(limit.value) || 10,
      ...(minScore.value === "" ? {} : { minScore: Number(minScore.value) }),
      ...(superseded.checked ? { includeSuperseded: true } : {}),
      ...(snoozed.checked ? { includeSnoozed: true } : {}),
      // A person browsing is not an agent using memory: nothing is recorded as surfaced, so the
      // inspector never skews the usage statistics (docs/usage.md).
      track: false,
      // The trace: every candidate the recall dropped, and why.
      ...(whyNot.checked ? { explain: "full" } : {}),
    };
    try {
      const { results: found, trace } = await request<{ results: Entry[]; trace?: RecallTrace }>(
        "POST",
        "/v1/recall",
        body,
      );
      results.replaceChildren(
        h("h2", {}, `${found.length} result${found.length === 1 ? "" : "s"}`),
        h(
          "ol",
          { class: "results" },
          ...found.map((entry) =>
            h(
              "li",
              {},
              h(
                "p",
                {},
                h("a", { href: entryHref(entry.namespace, entry.key), class: "key" }, entry.key),
                h("span", { class: "tag" }, ` ${entry.category}`),
                ...(entry.pinned ? [h("span", { class: "tag" }, " pinned")] : []),
                ...(entry.snoozedUntil ? [h("span", { class: "tag" }, " snoozed")] : []),
                ` score ${formatNumber(entry.score)}`,
              ),
              sourceLine(entry),
              h("p", { class: "muted" }, preview(entry.content, 240)),
              whyItRanked(entry.explain, entry.score, threshold),
            ),
          ),
        ),
        ...(trace
          ? [
              whyNotSection(trace, (explain, score) =>
                whyItRanked(explain, score, formatNumber(trace.settings.minScore, 2)),
              ),
            ]
          : []),
      );
    } catch (error) {
      results.replaceChildren();
      throw error;
    }
  });
  queryField.focus();
}
