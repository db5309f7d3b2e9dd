import { open } from "node:fs/promises";
import type { MineFormat } from "./mine-types.js";

/** File name endings `mine` looks at when it walks a folder. */
export const MINED_EXTENSIONS = [".jsonl", ".ndjson", ".json", ".txt", ".md", ".markdown", ".text"];

const SAMPLE_BYTES = 64 * 1024;

export type Detection = { format: MineFormat } | { binary: true } | { unknown: string };

/**
 * The format of one file from its name and its first 64 KiB: a NUL byte means binary (whatever
 * the name says); JSONL is Codex when it has the `session_meta`/`payload` envelope or a bare
 * first line with an `id`, else Claude Code when it has `sessionId`; a JSON array is ChatGPT when
 * it has `mapping`, Claude.ai when it has `chat_messages`; text names are plain transcripts.
 */
export async function detectFormat(file: string, forced?: MineFormat): Promise<Detection> {
  const handle = await open(file, "r");
  let sample: Buffer;
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    sample = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (sample.includes(0)) return { binary: true };
  if (forced) return { format: forced };
  const head = sample.toString("utf8");
  const lower = file.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) {
    if (/"type"\s*:\s*"session_meta"|"payload"\s*:/.test(head)) return { format: "codex" };
    if (/"sessionId"\s*:/.test(head)) return { format: "claude-code" };
    if (/"type"\s*:\s*"message"/.test(head) && /"role"\s*:/.test(head)) return { format: "codex" };
    return { unknown: "JSONL that is neither a Claude Code nor a Codex session" };
  }
  if (lower.endsWith(".json")) {
    if (/^\uFEFF?\s*\[/.test(head)) {
      if (/"mapping"\s*:/.test(head)) return { format: "chatgpt" };
      if (/"chat_messages"\s*:/.test(head)) return { format: "claude-ai" };
    }
    return { unknown: "JSON that is neither a ChatGPT nor a Claude.ai export" };
  }
  if (MINED_EXTENSIONS.some((extension) => lower.endsWith(extension))) return { format: "text" };
  return { unknown: "not a known conversation file (use --format to force one)" };
}
