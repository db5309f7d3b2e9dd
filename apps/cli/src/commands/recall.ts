import type { MemoryEntry, RecallExplain, RecallOptions, SearchMode } from "@memory/api";
import type { CommandHandler } from "../cli/lazy-action.js";
import type { Style } from "../output/style.js";
import { singleLine, truncate } from "../output/table.js";
import { syncConfigured } from "./shared/collections.js";
import { describeSupersession } from "./shared/describe-conflict.js";
import { entryHeadline } from "./shared/describe-entry.js";
import { entryFilter, type FilterOptions } from "./shared/entry-filter.js";

export interface RecallCommandOptions extends FilterOptions {
  limit: number;
  mode?: SearchMode;
  minScore?: number;
  explain?: boolean;
  /** false with --no-collections. */
  collections: boolean;
  collection?: string[];
  includeSnoozed?: boolean;
  /** false with --no-track. */
  track: boolean;
}

// RRF and keyword-only scores can be tiny (1e-6); fixed digits would print them all as 0.
function fixed(value: number | undefined, digits: number): string {
  if (value === undefined) return "-";
  if (value !== 0 && Math.abs(value) < 10 ** -digits) return value.toExponential(2);
  return value.toFixed(digits);
}

/**
 * One line per result explaining its score. Ranks are shown 1-based (#1 = best of that stage);
 * the JSON output keeps the API's 0-based `keywordRank`/`vectorRank`.
 */
export function explainLine(explain: RecallExplain, style: Style): string {
  // A part measured for a candidate the other stage found has no rank: "keyword - (...)".
  const rank = (value: number | undefined) => (value === undefined ? "-" : `#${value + 1}`);
  const parts = [
    explain.keywordScore === undefined
      ? "keyword -"
      : `keyword ${rank(explain.keywordRank)} (bm25 ${fixed(explain.keywordScore, 3)}${explain.keywordRelevance === undefined ? "" : `, relevance ${fixed(explain.keywordRelevance, 3)}`})`,
    explain.cosine === undefined
      ? "vector -"
      : `vector ${rank(explain.vectorRank)} (cosine ${fixed(explain.cosine, 3)}${explain.vectorRelevance === undefined ? "" : `, relevance ${fixed(explain.vectorRelevance, 3)}`})`,
    `relevance ${fixed(explain.fused, 4)}`,
    `decay ${fixed(explain.decay, 3)}`,
  ];
  if (explain.intent !== undefined) parts.push(`intent x${fixed(explain.intent, 3)}`);
  if (explain.context !== undefined) parts.push(`context +${fixed(explain.context, 4)}`);
  const usage = explain.usage;
  if (usage?.pinned)
    parts.push(`pinned${usage.boost === undefined ? "" : ` +${fixed(usage.boost, 3)}`}`);
  else if (usage?.boost !== undefined) parts.push(`usage ${fixed(usage.boost, 3)}`);
  if (usage?.halfLifeFactor !== undefined)
    parts.push(`half-life x${fixed(usage.halfLifeFactor, 2)} (used)`);
  if (explain.importance !== undefined) parts.push(`importance ${explain.importance}`);
  const how = [
    explain.source,
    explain.strategy,
    explain.earlyReturn ? "early return" : undefined,
  ].filter(Boolean);
  parts.push(how.join("/"));
  return style.dim(parts.join(" · "));
}

/** `notes: decisions/0007-cache.md:6-21 "Cache decision"` for a collection's fragment. */
function sourceLine(entry: MemoryEntry): string {
  const source = entry.source!;
  const title = source.title ? ` "${source.title}"` : "";
  const context = source.context ? ` (${source.context})` : "";
  return `${source.collection}: ${source.path}:${source.startLine}-${source.endLine}${title}${context}`;
}

function humanResults(results: MemoryEntry[], explain: boolean, style: Style): string[] {
  if (results.length === 0) return ["no matching entries"];
  const width = Math.max((process.stdout.columns ?? 100) - 3, 40);
  const lines: string[] = [];
  results.forEach((entry, index) => {
    lines.push(
      `${index + 1}. ${entryHeadline(entry, style)} ${style.dim(`score ${fixed(entry.score, 4)}`)}`,
    );
    if (entry.source?.collection) lines.push(`   ${style.dim(sourceLine(entry))}`);
    lines.push(`   ${truncate(singleLine(entry.content), width)}`);
    if (explain && entry.explain) lines.push(`   ${explainLine(entry.explain, style)}`);
    const superseded = entry.explain?.superseded;
    if (explain && superseded)
      lines.push(`   ${style.dim(describeSupersession(superseded.by, superseded))}`);
    const contradicts = entry.explain?.contradicts;
    if (explain && contradicts)
      lines.push(`   ${style.dim(`contradicts ${contradicts.join(", ")} (ranked above them)`)}`);
    const graph = entry.explain?.graph;
    if (explain && graph) {
      const paths = graph.via.map(
        (path) => `${path.from} -${path.type}->${path.through ? ` ${path.through} ->` : ""}`,
      );
      lines.push(`   ${style.dim(`graph +${fixed(graph.lift, 3)} via ${paths.join("; ")}`)}`);
    }
  });
  return lines;
}

/** `memory recall <query>`: the configured pipeline (hybrid by default), with `--explain`. */
const recall: CommandHandler<RecallCommandOptions> = async (context, args, options) => {
  const {
    limit,
    mode,
    minScore,
    explain,
    collections,
    collection,
    includeSnoozed,
    track,
    ...filters
  } = options;
  const [words = []] = args as [string[] | undefined];
  const query = words.join(" ");
  const recallOptions: RecallOptions = { ...entryFilter(filters), limit };
  if (mode !== undefined) recallOptions.mode = mode;
  if (minScore !== undefined) recallOptions.minScore = minScore;
  if (includeSnoozed) recallOptions.includeSnoozed = true;
  if (!track) recallOptions.track = false;
  if (!collections) recallOptions.collections = false;
  else if (collection) recallOptions.collections = collection;
  const { memory } = await context.open("configured");
  // A one-shot search sees the notes as they are now: changed notes are re-indexed first (an
  // unchanged note costs one stat). A collection that cannot be synced is a note, not a failure.
  if (collections) {
    for (const report of await syncConfigured(context, memory, collection))
      if (report.error)
        context.output.note(`note: collection ${report.collection}: ${report.error.message}`);
  }
  const results = await memory.recall(query, recallOptions);
  const degraded = results.find((entry) => entry.explain?.degraded)?.explain?.degraded;
  if (degraded) context.output.note(`note: recall was keyword-only: ${degraded}`);
  // The recallId is what `memory feedback` takes; absent when the recall was not tracked.
  const { recallId } = results;
  context.output.result(
    {
      query,
      count: results.length,
      ...(recallId === undefined ? {} : { recallId }),
      results: [...results],
    },
    () => [
      ...humanResults(results, explain === true, context.output.style),
      ...(recallId === undefined
        ? []
        : [
            context.output.style.dim(
              `recall id ${recallId} (memory feedback ${recallId} --used <keys>)`,
            ),
          ]),
    ],
  );
};

export default recall;
