import {
  type ChatModel,
  InvalidInputError,
  MemoryError,
  validateContent,
  validateKey,
  validateNamespace,
} from "@memory/api";
import { type EntryMetadata, entryMetadata, formatEntryLine } from "../format/entry-line.js";
import { entryFile, type FileRole, fileRole } from "../format/layout.js";
import {
  dominantEol,
  type FoundEntry,
  type ParsedMarkdown,
  parseMarkdownFile,
} from "../format/markdown-file.js";
import type { MarkdownMemory } from "../markdown-memory.js";
import type { MemoryFileText } from "../tree-files.js";
import { ConsolidationError } from "./consolidation-error.js";
import { dailyLogPaths } from "./daily-logs.js";
import { type TraceUnit, traceLine, traceUnit } from "./trace-lines.js";
import { unifiedDiff } from "./unified-diff.js";

/** Defaults of {@link consolidateMemoryFile}. */
export const FILE_CONSOLIDATION_DEFAULTS = {
  /** Daily files read: today (UTC) and the days before it. */
  days: 7,
  /** Largest share of the previous entries that may disappear without `force`. */
  maxRemovedShare: 0.25,
} as const;

export interface ConsolidateMemoryFileOptions {
  chatModel: ChatModel;
  /** Whose `MEMORY.md` and daily files (default: the default namespace). */
  namespace?: string;
  /** How many daily files, by date: today and the `days - 1` days before (default 7, 1..366). */
  days?: number;
  /** Allow more than 25% of the previous entries to disappear. */
  force?: boolean;
  /** Check and report; write nothing. */
  dryRun?: boolean;
  /** The clock: today's date, new entries' timestamps, the backup's name (default now). */
  now?: Date;
  signal?: AbortSignal;
}

/** What a consolidation of `MEMORY.md` did (with dryRun: would do). */
export interface FileConsolidationReport {
  at: string;
  namespace: string;
  /** The file consolidated, relative to the root (`MEMORY.md`, `namespaces/<dir>/MEMORY.md`). */
  path: string;
  /** `provider/model`. */
  model: string;
  days: number;
  /** The daily files read, oldest first. */
  sources: string[];
  dryRun: boolean;
  force: boolean;
  /** Set when nothing was asked: no daily file in the period. */
  skipped?: "no-daily-files";
  /** The file was rewritten (false with dryRun, when skipped, or when the answer changed nothing). */
  written: boolean;
  entriesBefore: number;
  entriesAfter: number;
  removedKeys: string[];
  addedKeys: string[];
  /** Keys kept with another content. */
  changedKeys: string[];
  /** For each added or changed key, the source lines its content traces to (`path:line`). */
  tracedTo: Record<string, string[]>;
  /** Unified diff from the previous file to the new one ("" when equal). */
  diff: string;
  /** The previous version, kept under `.memory-state/history/` (null when nothing was written). */
  backup: string | null;
}

export const FILE_CONSOLIDATION_SYSTEM_PROMPT = [
  "You maintain MEMORY.md, the long-term memory file of an AI agent. You get the current",
  "MEMORY.md and the agent's recent daily log files. Answer with the complete updated MEMORY.md",
  "and nothing else: no code fence, no explanation. Format: a title line, then one entry per",
  "line, written `- **key**: content`; headings and other text may stay. Rules: keep every entry",
  "that is still true, with its key unchanged; add the durable facts of the daily logs",
  "(preferences, decisions, biographical facts, lasting project facts) as new entries with a",
  "short snake_case key; update an entry when a daily log says it changed; remove or merge only",
  "entries that are clearly duplicated or obsolete; never invent anything: write only what the",
  "files say, reusing their words; leave out one-off events and small talk. Metadata comments",
  "(<!-- memory ... -->) may be left out: they are kept by key.",
].join(" ");

const CORE_ROLE = fileRole("MEMORY.md") as FileRole;
const DAY_MS = 86_400_000;

function validateDays(days: unknown): number {
  if (days === undefined) return FILE_CONSOLIDATION_DEFAULTS.days;
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1 || days > 366)
    throw new InvalidInputError(
      `days must be an integer from 1 to 366 (how many daily files to read), got ${JSON.stringify(days)}.`,
    );
  return days;
}

/** A file as the model sees it: entry lines without their metadata comments. */
function modelView(parsed: ParsedMarkdown): string {
  const entries = new Map(parsed.entries.map((entry) => [entry.line, entry]));
  return parsed.lines
    .map(({ text }, index) => {
      const entry = entries.get(index + 1);
      return entry
        ? formatEntryLine({
            key: entry.key,
            content: entry.content,
            conversation: entry.conversation,
          })
        : text;
    })
    .join("\n");
}

/** The answer without a code fence around it (models add one despite the prompt). */
function unwrap(answer: string): string {
  const trimmed = answer.trim();
  const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(trimmed);
  return (fenced ? (fenced[2] as string) : trimmed).trim();
}

const HEADING = /^ {0,3}#{1,6}(\s|$)/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_MARKER = /^\s*(?:[-*+>]|\d+[.)])\s+/;

/** Units of one source file: each entry (key and content), each paragraph of free text. */
function unitsOf(path: string, parsed: ParsedMarkdown): TraceUnit[] {
  const units: TraceUnit[] = [];
  const entries = new Map(parsed.entries.map((entry) => [entry.line, entry]));
  let paragraph: { start: number; lines: string[] } | undefined;
  const close = (end: number) => {
    if (paragraph)
      units.push(
        traceUnit(
          paragraph.start === end ? `${path}:${end}` : `${path}:${paragraph.start}-${end}`,
          paragraph.lines.join("\n"),
        ),
      );
    paragraph = undefined;
  };
  parsed.lines.forEach(({ text }, index) => {
    const line = index + 1;
    const entry = entries.get(line);
    if (entry) {
      close(line - 1);
      units.push(
        traceUnit(`${path}:${line}`, `${entry.key.replace(/[_.-]/g, " ")} ${entry.content}`),
      );
    } else if (text.trim() === "" || HEADING.test(text)) close(line - 1);
    else {
      paragraph ??= { start: line, lines: [] };
      paragraph.lines.push(text);
    }
  });
  close(parsed.lines.length);
  return units;
}

/** Lines of the answer that are structure, not content (exempt from tracing). */
function isStructure(text: string): boolean {
  return text.trim() === "" || HEADING.test(text) || RULE.test(text) || FENCE.test(text);
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * Markdown consolidation ("hippocampus", README "Consolidation"): sends `MEMORY.md` and the
 * daily files of the last `days` days to the chat model, which answers the complete updated
 * `MEMORY.md`; checks the answer (it parses, with at least one entry; at most 25% of the
 * previous entries disappear unless `force`, and no pinned one even then; every added or changed line traces to a source
 * file, {@link traceLine}); keeps the metadata (id, timestamps, importance...) of every kept key,
 * whether or not the model copied the comment; then, unless `dryRun`, keeps the previous version
 * under `.memory-state/history/` and replaces the file atomically, under the tree lock,
 * compare-and-swap against the hash read at the start (an edit made meanwhile: CONFLICT,
 * nothing written). A refused answer is a {@link ConsolidationError}; nothing is changed then.
 */
export async function consolidateMemoryFile(
  memory: MarkdownMemory,
  options: ConsolidateMemoryFileOptions,
): Promise<FileConsolidationReport> {
  const { chatModel } = options;
  if (typeof chatModel?.complete !== "function")
    throw new InvalidInputError(
      "chatModel is required: consolidation asks a chat model (set chat_provider in [memory]).",
    );
  const namespace = validateNamespace(options.namespace);
  const days = validateDays(options.days);
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const force = options.force === true;
  const dryRun = options.dryRun === true;
  const path = entryFile(namespace, "core", at);
  const previous = await memory.readFile(path);
  const sources: MemoryFileText[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const day = new Date(now.getTime() - back * DAY_MS).toISOString();
    for (const dailyPath of dailyLogPaths(memory, namespace, day)) {
      const file = await memory.readFile(dailyPath);
      if (file) sources.push(file);
    }
  }
  const before = parseMarkdownFile(previous?.text ?? "", CORE_ROLE);
  const previousByKey = new Map<string, FoundEntry>();
  for (const entry of before.entries)
    if (!previousByKey.has(entry.key)) previousByKey.set(entry.key, entry);
  const report: FileConsolidationReport = {
    at,
    namespace,
    path,
    model: `${chatModel.name}/${chatModel.model}`,
    days,
    sources: sources.map((file) => file.path),
    dryRun,
    force,
    written: false,
    entriesBefore: previousByKey.size,
    entriesAfter: previousByKey.size,
    removedKeys: [],
    addedKeys: [],
    changedKeys: [],
    tracedTo: {},
    diff: "",
    backup: null,
  };
  if (sources.length === 0) return { ...report, skipped: "no-daily-files" };

  const parsedSources = sources.map((file) => ({
    file,
    parsed: parseMarkdownFile(file.text, fileRole("memory/2000-01-01.md") as FileRole),
  }));
  const user = [
    `Today is ${at.slice(0, 10)}.`,
    "",
    `===== ${path} (current) =====`,
    previous ? modelView(before) : "(the file does not exist yet)",
    "===== end =====",
    ...parsedSources.flatMap(({ file, parsed }) => [
      "",
      `===== ${file.path} (daily log) =====`,
      modelView(parsed),
      "===== end =====",
    ]),
  ].join("\n");
  let answer: string;
  try {
    answer = await chatModel.complete(
      [
        { role: "system", content: FILE_CONSOLIDATION_SYSTEM_PROMPT },
        { role: "user", content: user },
      ],
      { temperature: 0, ...(options.signal ? { signal: options.signal } : {}) },
    );
  } catch (error) {
    throw new ConsolidationError(
      "model-failed",
      `The chat model ${report.model} failed (consolidation of ${path}): ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`,
      { cause: error, ...(MemoryError.isInstance(error) ? { code: error.code } : {}) },
    );
  }
  const text = unwrap(typeof answer === "string" ? answer : "");
  const refuse = (
    reason: ConstructorParameters<typeof ConsolidationError>[0],
    problems: string[],
    what: string,
  ) =>
    new ConsolidationError(
      reason,
      `The consolidation of ${path} by ${report.model} was refused: ${what}${problems.length > 0 ? `: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? `; and ${problems.length - 5} more` : ""}` : ""}. Nothing was changed.`,
      { problems, details: { path, namespace } },
    );
  if (text === "") throw refuse("empty-answer", [], "the answer is empty");

  // 1. The answer parses as a memory file.
  const after = parseMarkdownFile(text, CORE_ROLE);
  const parseProblems: string[] = [];
  const knownLines = new Set(before.lines.map((line) => line.text));
  for (const problem of after.problems)
    if (!knownLines.has(after.lines[problem.line - 1]?.text ?? ""))
      parseProblems.push(`line ${problem.line}: ${problem.message}`);
  const afterByKey = new Map<string, FoundEntry>();
  for (const entry of after.entries) {
    try {
      validateKey(entry.key);
      validateContent(entry.content);
    } catch (error) {
      parseProblems.push(`line ${entry.line}: ${(error as Error).message}`);
    }
    if (afterByKey.has(entry.key))
      parseProblems.push(`line ${entry.line}: key ${JSON.stringify(entry.key)} appears twice`);
    else afterByKey.set(entry.key, entry);
  }
  if (after.entries.length === 0)
    parseProblems.push("the answer holds no entry line (`- **key**: content`)");
  if (parseProblems.length > 0)
    throw refuse("unparseable", parseProblems, "the answer is not a usable memory file");

  report.entriesAfter = afterByKey.size;
  report.removedKeys = [...previousByKey.keys()].filter((key) => !afterByKey.has(key));
  report.addedKeys = [...afterByKey.keys()].filter((key) => !previousByKey.has(key));
  report.changedKeys = [...afterByKey.values()]
    .filter((entry) => {
      const old = previousByKey.get(entry.key);
      return old !== undefined && old.content !== entry.content;
    })
    .map((entry) => entry.key);

  // 2. A pinned entry never disappears, even forced: a person pinned it (docs/usage.md).
  const pinnedRemoved = report.removedKeys.filter(
    (key) => previousByKey.get(key)?.metadata?.pinned === true,
  );
  if (pinnedRemoved.length > 0)
    throw refuse(
      "pinned-removed",
      [`removed: ${pinnedRemoved.join(", ")}`],
      "pinned entries would disappear, and consolidation never removes a pinned entry; unpin them first (memory unpin <key>) if that is intended",
    );

  // 3. At most 25% of the previous entries disappear, unless forced.
  const removedShare =
    previousByKey.size === 0 ? 0 : report.removedKeys.length / previousByKey.size;
  if (removedShare > FILE_CONSOLIDATION_DEFAULTS.maxRemovedShare && !force)
    throw refuse(
      "too-many-removals",
      [`removed: ${report.removedKeys.join(", ")}`],
      `${report.removedKeys.length} of ${previousByKey.size} entries (${percent(removedShare)}) would disappear, more than ${percent(FILE_CONSOLIDATION_DEFAULTS.maxRemovedShare)}; pass force (--force) if that is intended`,
    );

  // 4. Every added or changed line traces to a source file.
  const units = [
    ...(previous ? unitsOf(path, before) : []),
    ...parsedSources.flatMap(({ file, parsed }) => unitsOf(file.path, parsed)),
  ];
  const untraced: string[] = [];
  const trace = (label: string, content: string) => {
    const result = traceLine(content, units);
    if (result.traced) return result.origins;
    untraced.push(
      `${label} ${JSON.stringify(content)}: no source line holds ${result.missing.map((word) => JSON.stringify(word)).join(", ")} with the rest of ${JSON.stringify(result.clause)}`,
    );
    return undefined;
  };
  for (const key of [...report.addedKeys, ...report.changedKeys]) {
    const origins = trace(
      `entry ${JSON.stringify(key)}`,
      (afterByKey.get(key) as FoundEntry).content,
    );
    if (origins) report.tracedTo[key] = origins;
  }
  const entryLines = new Set(after.entries.map((entry) => entry.line));
  const knownText = new Set(before.lines.map((line) => line.text.trim()));
  after.lines.forEach(({ text: line }, index) => {
    if (entryLines.has(index + 1) || isStructure(line) || knownText.has(line.trim())) return;
    trace(`line ${index + 1}`, line.replace(LIST_MARKER, ""));
  });
  if (untraced.length > 0)
    throw refuse("untraceable", untraced, "lines that no source file supports were added");

  // The new file: kept entries keep their line (or their metadata, when their content changed).
  const eol = previous ? dominantEol(before.lines) : "\n";
  const entryAt = new Map(after.entries.map((entry) => [entry.line, entry]));
  const known = memory.tree.entries(namespace);
  const lines = after.lines.map(({ text: line }, index) => {
    const entry = entryAt.get(index + 1);
    if (!entry || afterByKey.get(entry.key) !== entry) return line;
    const old = previousByKey.get(entry.key);
    if (old && old.content === entry.content) return before.lines[old.line - 1]?.text as string;
    const row = known.get(entry.key);
    const metadata: EntryMetadata =
      old && row && row.source.path === path
        ? { ...entryMetadata(row.entry), updatedAt: at }
        : { id: crypto.randomUUID(), createdAt: at, updatedAt: at };
    return formatEntryLine({
      key: entry.key,
      content: entry.content,
      conversation: false,
      metadata,
    });
  });
  const newText = `${previous?.bom ? "\ufeff" : ""}${lines.join(eol)}${eol}`;
  const oldText = previous ? `${previous.bom ? "\ufeff" : ""}${previous.text}` : "";
  report.diff = unifiedDiff(oldText, newText, path);
  if (newText === oldText || dryRun) return report;
  const written = await memory.replaceFile(path, newText, {
    expectedHash: previous?.hash ?? null,
    keepPrevious: true,
    at: now,
  });
  report.written = true;
  report.backup = written.backup ?? null;
  return report;
}
