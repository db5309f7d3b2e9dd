import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { readJsonArray } from "./json-array-stream.js";
import { isRecord, type JsonRecord, text } from "./jsonl-records.js";
import type { MinedConversation, MinedMessage, SkipSink } from "./mine-types.js";
import { sourceTime } from "./source-time.js";

/** The list files of a Slack export; any one of them beside `users.json` marks its root. */
export const SLACK_LISTS = ["channels.json", "groups.json", "dms.json", "mpims.json"] as const;

// Join, leave, topic and similar notices are not conversation.
const NOTICES = new Set([
  "channel_join",
  "channel_leave",
  "channel_topic",
  "channel_purpose",
  "channel_name",
  "channel_archive",
  "group_join",
  "group_leave",
  "pinned_item",
]);

async function elements(
  file: string,
  skip: SkipSink,
): Promise<{ line: number; value: JsonRecord }[]> {
  const out: { line: number; value: JsonRecord }[] = [];
  for await (const element of readJsonArray(file)) {
    if ("problem" in element)
      skip({ path: file, line: element.line, code: element.problem, reason: element.reason });
    else if (isRecord(element.value)) out.push({ line: element.line, value: element.value });
  }
  return out;
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/** Speakers by user id: the real name, else the display name, else the handle. */
async function userNames(root: string, skip: SkipSink): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const file = path.join(root, "users.json");
  if (!(await exists(file))) return names;
  for (const { value: user } of await elements(file, skip)) {
    const profile = isRecord(user.profile) ? user.profile : {};
    const name =
      text(user.real_name) ||
      text(profile.real_name) ||
      text(profile.display_name) ||
      text(user.name);
    const id = text(user.id);
    if (id && name) names.set(id, name);
  }
  return names;
}

/** Conversation folders: channels and private groups by name, DMs and group DMs by id. */
async function conversationFolders(root: string, skip: SkipSink): Promise<string[]> {
  const folders: string[] = [];
  for (const list of SLACK_LISTS) {
    const file = path.join(root, list);
    if (!(await exists(file))) continue;
    for (const { value } of await elements(file, skip)) {
      const folder = list === "dms.json" ? text(value.id) : (text(value.name) ?? text(value.id));
      // A folder name from the export never leaves the export's root.
      if (folder && !folder.includes("/") && !folder.includes("\\") && !folder.startsWith("."))
        folders.push(folder);
    }
  }
  return [...new Set(folders)];
}

/**
 * A Slack export folder: `users.json`, `channels.json` / `groups.json` / `dms.json` /
 * `mpims.json`, and one folder per conversation holding a JSON array of messages per day
 * (`2024-03-01.json`). A conversation is one channel or DM (session id `slack:<folder>`).
 * Slack has no user/assistant sides: a message that is not a thread reply opens an exchange, its
 * thread replies (ordered after it, even from later days) are its replies, and every line is
 * prefixed with the speaker's name. Symlinks inside the export are not followed.
 */
export async function* readSlack(root: string, skip: SkipSink): AsyncGenerator<MinedConversation> {
  const names = await userNames(root, skip);
  const mention = (body: string) =>
    body.replace(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g, (_, id: string) => `@${names.get(id) ?? id}`);
  for (const folder of await conversationFolders(root, skip)) {
    const dir = path.join(root, folder);
    const stats = await lstat(dir).catch(() => undefined);
    if (!stats?.isDirectory()) continue;
    const days = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
      .map((entry) => entry.name)
      .sort();
    const raw: (MinedMessage & { anchor: string; ts: string })[] = [];
    for (const day of days) {
      const file = path.join(dir, day);
      for (const { line, value: message } of await elements(file, skip)) {
        if (message.type !== "message" || NOTICES.has(String(message.subtype))) continue;
        const ts = text(message.ts);
        if (ts === undefined) continue;
        const thread = text(message.thread_ts);
        const user = text(message.user);
        const profile = isRecord(message.user_profile) ? message.user_profile : {};
        const speaker =
          text(profile.real_name) ||
          (user ? names.get(user) : undefined) ||
          text(message.username) ||
          user ||
          "unknown";
        const files = (Array.isArray(message.files) ? message.files : [])
          .filter(isRecord)
          .map((file) => text(file.name) ?? text(file.title) ?? "file");
        const time = sourceTime(ts);
        raw.push({
          role: thread !== undefined && thread !== ts ? "assistant" : "user",
          speaker,
          text: mention(text(message.text) ?? ""),
          ...(files.length > 0 ? { attachments: files } : {}),
          line,
          ...(time ? { time } : {}),
          anchor: thread ?? ts,
          ts,
        });
      }
    }
    // Slack ts are "seconds.micros" strings; compare as numbers (thread root first).
    raw.sort((a, b) => Number(a.anchor) - Number(b.anchor) || Number(a.ts) - Number(b.ts));
    const messages: MinedMessage[] = raw.map(({ anchor: _a, ts: _t, ...message }) => message);
    const id = `slack:${folder}`;
    yield { id, sessionId: id, title: folder, messages };
  }
}

/** True when `dir` holds `users.json` and at least one Slack conversation list. */
export async function isSlackExport(dir: string): Promise<boolean> {
  if (!(await exists(path.join(dir, "users.json")))) return false;
  for (const list of SLACK_LISTS) if (await exists(path.join(dir, list))) return true;
  return false;
}
