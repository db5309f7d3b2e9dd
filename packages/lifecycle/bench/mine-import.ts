/**
 * Import rate of `mineConversations` on a generated ChatGPT export (`conversations.json`) into
 * a real SQLite file, keyword-only (no embedder: this measures reading, splitting and writing,
 * not an embedding provider).
 *
 *   pnpm --filter @memory/lifecycle bench:mine [-- <megabytes> [chatgpt|claude-code]]
 *
 * Prints the file size, exchanges, seconds, entries/s and the peak RSS sampled every 50 ms
 * (streamed input: peak memory should not grow with the file).
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSqliteMemory } from "@memory/sqlite";
import { mineConversations } from "../src/index.js";

const megabytes = Number(process.argv[2] ?? 50);
const format = process.argv[3] === "claude-code" ? "claude-code" : "chatgpt";
const TOPICS = ["database", "deploy", "editor", "travel", "budget", "tests", "design", "hiring"];

function sentence(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++)
    out.push(`${TOPICS[(seed + i) % TOPICS.length]}${(seed * 31 + i) % 997}`);
  return `${out.join(" ")}.`;
}

/** A ChatGPT conversation of `turns` exchanges as one JSON text (a linear mapping tree). */
function chatgptConversation(index: number, turns: number): string {
  const mapping: Record<string, unknown> = {
    root: { id: "root", parent: null, children: ["m0"], message: null },
  };
  let parent = "root";
  for (let i = 0; i < turns * 2; i++) {
    const id = `m${i}`;
    const role = i % 2 === 0 ? "user" : "assistant";
    mapping[id] = {
      id,
      parent,
      children: i + 1 < turns * 2 ? [`m${i + 1}`] : [],
      message: {
        id,
        author: { role },
        create_time: 1_700_000_000 + index * 3600 + i * 30,
        content: { content_type: "text", parts: [sentence(index + i, role === "user" ? 25 : 90)] },
        metadata: {},
        recipient: "all",
      },
    };
    parent = id;
  }
  return JSON.stringify({
    title: `Conversation ${index}`,
    create_time: 1_700_000_000 + index * 3600,
    mapping,
    current_node: parent,
    conversation_id: `c-${index}`,
  });
}

function claudeCodeLine(index: number): string {
  const role = index % 2 === 0 ? "user" : "assistant";
  const content =
    role === "user" ? sentence(index, 25) : [{ type: "text", text: sentence(index, 90) }];
  return JSON.stringify({
    type: role,
    sessionId: "bench-session",
    message: { role, content },
    timestamp: new Date(Date.UTC(2025, 0, 1) + index * 1000).toISOString(),
    uuid: `u${index}`,
    cwd: "/work/app",
  });
}

async function generate(file: string): Promise<void> {
  const out = createWriteStream(file);
  const target = megabytes * 1024 * 1024;
  let written = 0;
  const write = (text: string) =>
    new Promise<void>((resolve) => {
      written += Buffer.byteLength(text);
      if (out.write(text)) resolve();
      else out.once("drain", resolve);
    });
  if (format === "chatgpt") {
    await write("[");
    for (let index = 0; written < target; index++)
      await write(`${index === 0 ? "" : ",\n"}${chatgptConversation(index, 12)}`);
    await write("]\n");
  } else for (let index = 0; written < target; index++) await write(`${claudeCodeLine(index)}\n`);
  await new Promise<void>((resolve) => out.end(resolve));
}

const dir = mkdtempSync(path.join(tmpdir(), "memory-mine-bench-"));
try {
  const file = path.join(dir, format === "chatgpt" ? "conversations.json" : "session.jsonl");
  await generate(file);
  const memory = createSqliteMemory({ path: path.join(dir, "brain.db") });
  // Reading alone (a dry run: detect, stream, split, no store) to tell parse time from write time.
  const readStarted = performance.now();
  await mineConversations(memory, [file], { dryRun: true });
  const readSeconds = (performance.now() - readStarted) / 1000;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  const report = await mineConversations(memory, [file]);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await memory.close();
  console.log(
    JSON.stringify(
      {
        format,
        fileMB: Number((statSync(file).size / 1024 / 1024).toFixed(1)),
        conversations: report.conversations,
        exchanges: report.exchanges,
        stored: report.stored,
        skipped: report.skipped.length,
        dryRunSeconds: Number(readSeconds.toFixed(2)),
        seconds: Number(seconds.toFixed(2)),
        entriesPerSecond: Math.round(report.stored / seconds),
        peakRssMB: Math.round(peak / 1024 / 1024),
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
