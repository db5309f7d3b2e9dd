import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { MINED_EXTENSIONS } from "./detect-format.js";
import type { MineSkip } from "./mine-types.js";
import { isSlackExport } from "./slack.js";

/** What a walk finds: a file to read, a Slack export folder, or something it skips. */
export type Source = { file: string } | { slack: string } | { skip: MineSkip };

function problem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "EACCES" || code === "EPERM"
    ? "permission denied (check the file's permissions)"
    : (error as Error).message;
}

/**
 * The sources under `root`, in name order. A given file is read whatever its name; inside a
 * folder only conversation-like names are (MINED_EXTENSIONS), dot entries are skipped, and a
 * symlink is reported and never followed, so a link loop or a link out of the folder cannot
 * make the walk revisit or escape. A folder with `users.json` and a channel list is a Slack export.
 */
export async function* walkSources(root: string): AsyncGenerator<Source> {
  const stats = await stat(root).catch((error: unknown) => error as Error);
  if (stats instanceof Error) {
    yield { skip: { path: root, code: "UNREADABLE", reason: problem(stats) } };
    return;
  }
  if (!stats.isDirectory()) {
    yield { file: root };
    return;
  }
  yield* walkFolder(root);
}

async function* walkFolder(dir: string): AsyncGenerator<Source> {
  if (await isSlackExport(dir)) {
    yield { slack: dir };
    return;
  }
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    yield { skip: { path: dir, code: "UNREADABLE", reason: problem(error) } };
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      yield { skip: { path: full, code: "SYMLINK", reason: "a symbolic link (never followed)" } };
    } else if (entry.isDirectory()) yield* walkFolder(full);
    else if (entry.isFile()) {
      const lower = entry.name.toLowerCase();
      if (MINED_EXTENSIONS.some((extension) => lower.endsWith(extension))) yield { file: full };
    }
  }
}
