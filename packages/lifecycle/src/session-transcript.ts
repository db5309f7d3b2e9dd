import { appendFile, mkdir, readdir, readFile, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { InvalidInputError } from "@memory/api";

/** One line of a session transcript (`sessions/<id>.jsonl`). `at` is set when absent. */
export type TranscriptLine =
  | { type: "message"; role: "user" | "assistant" | "system"; content: string; at?: string }
  | { type: "tool_call"; id?: string; name: string; arguments?: unknown; at?: string }
  | {
      type: "tool_result";
      id?: string;
      name?: string;
      content: unknown;
      isError?: boolean;
      at?: string;
    }
  | { type: "compaction"; summary: string; replacedLines?: number; at?: string };

export const TRANSCRIPT_LINE_TYPES = ["message", "tool_call", "tool_result", "compaction"] as const;
/** The directory under `data_dir` that holds transcripts. */
export const SESSIONS_DIR = "sessions";
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const DAY_MS = 86_400_000;

/**
 * Checks a session id before it becomes a file name: 1-128 letters, digits, `.`, `_`, `-`,
 * starting with a letter or digit, no `..` (so it can never leave the sessions directory).
 */
export function validateSessionId(sessionId: unknown): string {
  if (typeof sessionId !== "string" || !SESSION_ID.test(sessionId) || sessionId.includes("..")) {
    throw new InvalidInputError(
      `Session id ${JSON.stringify(sessionId)} cannot name a transcript: use 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit, without "..".`,
      { details: { field: "sessionId" } },
    );
  }
  return sessionId;
}

/** The transcript file of a session: `<dir>/<id>.jsonl`. */
export function transcriptPath(dir: string, sessionId: string): string {
  return path.join(dir, `${validateSessionId(sessionId)}.jsonl`);
}

function checkLine(line: TranscriptLine): void {
  if (!TRANSCRIPT_LINE_TYPES.includes(line?.type)) {
    throw new InvalidInputError(
      `Transcript line type ${JSON.stringify(line?.type)} is unknown: use ${TRANSCRIPT_LINE_TYPES.join(", ")}.`,
    );
  }
}

/**
 * Appends lines to a session's transcript, creating the directory and file on first use. The
 * file is only ever appended to (one `O_APPEND` write per call, one JSON object per line), so
 * concurrent writers never interleave inside a line and nothing written is rewritten.
 */
export async function appendTranscript(
  dir: string,
  sessionId: string,
  lines: TranscriptLine | readonly TranscriptLine[],
  options: { now?: Date } = {},
): Promise<void> {
  const file = transcriptPath(dir, sessionId);
  const list = Array.isArray(lines) ? lines : [lines as TranscriptLine];
  if (list.length === 0) return;
  const at = (options.now ?? new Date()).toISOString();
  let text = "";
  for (const line of list) {
    checkLine(line);
    text += `${JSON.stringify({ ...line, at: line.at ?? at })}\n`;
  }
  await mkdir(dir, { recursive: true });
  await appendFile(file, text, { flag: "a" });
}

/**
 * Reads a transcript; `[]` when the session has none. A line that is not JSON (a torn last
 * line after a crash) is skipped and counted in `corrupt`.
 */
export async function readTranscript(
  dir: string,
  sessionId: string,
): Promise<{ lines: TranscriptLine[]; corrupt: number }> {
  let text: string;
  try {
    text = await readFile(transcriptPath(dir, sessionId), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { lines: [], corrupt: 0 };
    throw error;
  }
  const lines: TranscriptLine[] = [];
  let corrupt = 0;
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    try {
      lines.push(JSON.parse(raw) as TranscriptLine);
    } catch {
      corrupt++;
    }
  }
  return { lines, corrupt };
}

export interface PruneTranscriptsReport {
  at: string;
  dryRun: boolean;
  /** Transcripts found. */
  before: number;
  /** Session ids whose transcript was deleted (not modified for `retentionDays`). */
  deleted: string[];
}

/**
 * Deletes transcripts not written to for `retentionDays` (by file modification time). Files
 * that are not `<id>.jsonl` are left alone. A missing directory is an empty one.
 */
export async function pruneTranscripts(
  dir: string,
  options: { retentionDays: number; now?: Date; dryRun?: boolean },
): Promise<PruneTranscriptsReport> {
  const now = options.now ?? new Date();
  const cutoff = now.getTime() - options.retentionDays * DAY_MS;
  const report: PruneTranscriptsReport = {
    at: now.toISOString(),
    dryRun: options.dryRun === true,
    before: 0,
    deleted: [],
  };
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return report;
    throw error;
  }
  for (const name of names.sort()) {
    const id = name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : "";
    if (!SESSION_ID.test(id)) continue;
    report.before++;
    const file = path.join(dir, name);
    const { mtimeMs } = await stat(file);
    if (mtimeMs >= cutoff) continue;
    if (!report.dryRun) await unlink(file);
    report.deleted.push(id);
  }
  return report;
}
