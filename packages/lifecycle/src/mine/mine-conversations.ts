import { createHash } from "node:crypto";
import path from "node:path";
import {
  type ChatModel,
  type ImportEntry,
  InvalidInputError,
  type Memory,
  validateCategory,
  validateNamespace,
} from "@memory/api";
import { computeImportance } from "@memory/core";
import { readChatGpt } from "./chatgpt.js";
import { readClaudeAi } from "./claude-ai.js";
import { readClaudeCode } from "./claude-code.js";
import { readCodex } from "./codex.js";
import { detectFormat } from "./detect-format.js";
import { type MinedExchange, toExchanges } from "./exchanges.js";
import {
  MINE_FORMATS,
  type MinedConversation,
  type MineFormat,
  type MineSkip,
  type SkipSink,
} from "./mine-types.js";
import { readPlainText } from "./plain-text.js";
import { readSlack } from "./slack.js";
import {
  promptExchanges,
  type SynthesisReport,
  type SynthesisSource,
  synthesize,
} from "./synthesize.js";
import { walkSources } from "./walk-sources.js";

export interface MineOptions {
  namespace?: string;
  /** Default `conversation`. */
  category?: string;
  /** Read every file as this format instead of detecting it. */
  format?: MineFormat;
  /** Read and report, store nothing. */
  dryRun?: boolean;
  /** After the import, extract durable facts with this model (`synthesize`). */
  chatModel?: ChatModel;
  /** Called after each conversation. */
  onProgress?: (progress: { files: number; exchanges: number }) => void;
  signal?: AbortSignal;
}

/** One entry `mine` stores (or, with dryRun, would store), without its content. */
export interface MinedEntryPreview {
  key: string;
  sessionId: string;
  path: string;
  line: number;
  createdAt?: string;
  preview: string;
}

export interface MineReport {
  files: number;
  conversations: number;
  exchanges: number;
  /** Entries written (0 with dryRun). */
  stored: number;
  dryRun: boolean;
  /** Files, lines, conversations or entries not imported, with the reason. */
  skipped: MineSkip[];
  /** With dryRun: the first {@link DRY_RUN_PREVIEWS} entries that would be stored. */
  preview?: MinedEntryPreview[];
  synthesis?: SynthesisReport;
  interrupted?: boolean;
}

/** A dry run lists this many entries; the counts cover all of them. */
export const DRY_RUN_PREVIEWS = 1000;

/**
 * The key of an exchange: `mine:<hash of the source's absolute path>:<conversation>:<index>`.
 * The hash keeps keys short and free of path characters; the same file mined again gives the
 * same keys, so a rerun updates its entries instead of adding new ones. Moving the file
 * changes them (docs/mine.md).
 */
export function exchangeKey(source: string, conversationId: string, index: number): string {
  const hash = createHash("sha256").update(path.resolve(source)).digest("hex").slice(0, 16);
  const conversation = conversationId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 200);
  return `mine:${hash}:${conversation}:${index}`;
}

function readerFor(format: MineFormat, file: string, skip: SkipSink) {
  switch (format) {
    case "claude-code":
      return readClaudeCode(file, skip);
    case "codex":
      return readCodex(file, skip);
    case "chatgpt":
      return readChatGpt(file, skip);
    case "claude-ai":
      return readClaudeAi(file, skip);
    case "slack":
      return readSlack(file, skip);
    case "text": {
      const hash = createHash("sha256").update(path.resolve(file)).digest("hex").slice(0, 8);
      return readPlainText(file, skip, `text:${path.basename(file).slice(0, 200)}-${hash}`);
    }
  }
}

function errorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM")
    return "permission denied (check the file's permissions)";
  if (code === "EISDIR") return "a folder where a file was expected";
  return (error as Error).message;
}

/**
 * Imports past conversations from files and folders (docs/mine.md): each file's format is
 * detected (or forced), each conversation cut into exchanges, each exchange stored as one entry
 * through `memory.importEntries` (an upsert on the key, with the exchange's own times as
 * createdAt/updatedAt). Bad files, lines and conversations are reported in `skipped` with path
 * and line and never stop the import; only a failure of the store itself does. With a chat
 * model, facts are extracted afterwards; a model failure is counted and never undoes the import.
 */
export async function mineConversations(
  memory: Memory,
  paths: readonly string[],
  options: MineOptions = {},
): Promise<MineReport> {
  const namespace = validateNamespace(options.namespace ?? "default");
  const category = validateCategory(options.category ?? "conversation");
  if (options.format !== undefined && !MINE_FORMATS.includes(options.format))
    throw new InvalidInputError(
      `Unknown format "${options.format}": use one of ${MINE_FORMATS.join(", ")} (or leave --format out to detect it per file).`,
      { details: { field: "format" } },
    );
  const report: MineReport = {
    files: 0,
    conversations: 0,
    exchanges: 0,
    stored: 0,
    dryRun: options.dryRun === true,
    skipped: [],
  };
  const positions: { path: string; line: number }[] = [];
  const sources: SynthesisSource[] = [];
  const preview: MinedEntryPreview[] = [];

  const entries = async function* (): AsyncGenerator<ImportEntry> {
    for (const root of paths) {
      for await (const source of walkSources(path.resolve(root))) {
        if ("skip" in source) {
          report.skipped.push(source.skip);
          continue;
        }
        const file = "slack" in source ? source.slack : source.file;
        const skip: SkipSink = (item) => report.skipped.push({ path: file, ...item });
        let format: MineFormat;
        if ("slack" in source) format = "slack";
        else {
          try {
            const detected = await detectFormat(file, options.format);
            if ("binary" in detected) {
              skip({ code: "BINARY", reason: "a binary file (it holds NUL bytes)" });
              continue;
            }
            if ("unknown" in detected) {
              skip({ code: "UNKNOWN_FORMAT", reason: detected.unknown });
              continue;
            }
            format = detected.format;
          } catch (error) {
            skip({ code: "UNREADABLE", reason: errorReason(error) });
            continue;
          }
        }
        report.files++;
        try {
          for await (const conversation of readerFor(format, file, skip)) {
            yield* conversationEntries(file, conversation);
            if (options.signal?.aborted) return;
          }
        } catch (error) {
          // An I/O failure halfway (the file vanished, a disk error): this file is reported and
          // the exchanges read before it stay imported.
          skip({ code: "UNREADABLE", reason: errorReason(error) });
        }
      }
    }
  };

  function* conversationEntries(
    file: string,
    conversation: MinedConversation,
  ): Generator<ImportEntry> {
    const exchanges = toExchanges(conversation);
    report.conversations++;
    const keyed: (MinedExchange & { key: string })[] = [];
    for (const exchange of exchanges) {
      const key = exchangeKey(file, conversation.id, exchange.index);
      keyed.push({ ...exchange, key });
      report.exchanges++;
      positions.push({ path: file, line: exchange.line });
      const entry: ImportEntry = {
        key,
        content: exchange.content,
        category,
        namespace,
        sessionId: conversation.sessionId,
        importance: computeImportance(exchange.content, category),
        ...(exchange.createdAt ? { createdAt: exchange.createdAt } : {}),
        ...(exchange.updatedAt ? { updatedAt: exchange.updatedAt } : {}),
      };
      if (report.dryRun && preview.length < DRY_RUN_PREVIEWS)
        preview.push({
          key,
          sessionId: conversation.sessionId,
          path: file,
          line: exchange.line,
          ...(exchange.createdAt ? { createdAt: exchange.createdAt } : {}),
          preview: exchange.content.slice(0, 120),
        });
      yield entry;
    }
    if (options.chatModel && keyed.length > 0)
      sources.push({
        sessionId: conversation.sessionId,
        namespace,
        exchanges: promptExchanges(keyed).map(({ key, content, createdAt }) => ({
          key,
          content,
          ...(createdAt ? { createdAt } : {}),
        })),
      });
    options.onProgress?.({ files: report.files, exchanges: report.exchanges });
  }

  if (report.dryRun) {
    for await (const _ of entries()) {
      // Counting and previews happen as the entries are produced.
    }
    report.preview = preview;
    return report;
  }
  const imported = await memory.importEntries(entries(), {
    ...(options.signal ? { signal: options.signal } : {}),
  });
  report.stored = imported.imported;
  if (imported.interrupted) report.interrupted = true;
  for (const rejection of imported.rejected) {
    const at = positions[rejection.index];
    report.skipped.push({
      path: at?.path ?? "",
      ...(at ? { line: at.line } : {}),
      code: "REJECTED",
      reason: `${rejection.code}: ${rejection.message}`,
    });
  }
  if (options.chatModel && !report.interrupted)
    report.synthesis = await synthesize(memory, sources, {
      chatModel: options.chatModel,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  return report;
}
