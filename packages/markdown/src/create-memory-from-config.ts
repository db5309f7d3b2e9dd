import { realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
  type BackendContext,
  ConfigError,
  type MemoryConfig,
  type StoreDescription,
  type UnhonouredSettings,
} from "@memory/api";
import { assertKnownTableKeys, retrievalSettingsFromConfig } from "@memory/core";
import { MARKDOWN_UNHONOURED_SETTINGS } from "./markdown-driver.js";
import { createMarkdownMemory, type MarkdownMemory } from "./markdown-memory.js";
import type { MarkdownMemoryOptions } from "./markdown-options.js";

/** The optional `[markdown]` table of memory.toml. */
interface MarkdownTable {
  path?: string;
  index?: boolean;
  watch?: boolean;
  watch_debounce_ms?: number;
}

function markdownTable(config: MemoryConfig): MarkdownTable {
  const table = config.markdown;
  if (table === undefined) return {};
  if (typeof table !== "object" || table === null || Array.isArray(table))
    throw new ConfigError("[markdown] must be a table.");
  const values = table as Record<string, unknown>;
  assertKnownTableKeys("markdown", values);
  const { path, index, watch, watch_debounce_ms } = values;
  if (path !== undefined && (typeof path !== "string" || path === ""))
    throw new ConfigError(
      "[markdown].path must be a non-empty string (the memory tree's directory).",
    );
  if (index !== undefined && typeof index !== "boolean")
    throw new ConfigError("[markdown].index must be true or false.");
  if (watch !== undefined && typeof watch !== "boolean")
    throw new ConfigError("[markdown].watch must be true or false.");
  if (
    watch_debounce_ms !== undefined &&
    (typeof watch_debounce_ms !== "number" ||
      !Number.isInteger(watch_debounce_ms) ||
      watch_debounce_ms < 0)
  )
    throw new ConfigError("[markdown].watch_debounce_ms must be an integer >= 0.");
  return values as MarkdownTable;
}

/**
 * The memory tree a configuration opens: `[markdown].path`, else `data_dir` itself (so the
 * workspace holds `MEMORY.md` and `memory/` as the reference systems lay them out), relative
 * to the working directory when relative.
 */
export function markdownRoot(config: MemoryConfig): string {
  return resolve(markdownTable(config).path ?? config.memory.data_dir);
}

/** The options `createMemory` uses: the tree of `markdownRoot`, `[markdown]` and the `[memory]` keys. */
export function markdownOptionsFromConfig(
  config: MemoryConfig,
  context: BackendContext = {},
): MarkdownMemoryOptions {
  const table = markdownTable(config);
  const options: MarkdownMemoryOptions = {
    root: markdownRoot(config),
    ...retrievalSettingsFromConfig(config.memory),
    embeddingCacheMax: config.memory.embedding_cache_max,
  };
  if (table.index !== undefined) options.index = table.index;
  // Unset: watch in long-running processes (a server keeps its index current as files are
  // edited), not in one-shot commands (which check files on each operation instead).
  const watch = table.watch ?? context.longRunning;
  if (watch !== undefined) options.watch = watch;
  if (table.watch_debounce_ms !== undefined) options.watchDebounceMs = table.watch_debounce_ms;
  if (context.embedder) options.embedder = context.embedder;
  if (context.chatModel) options.chatModel = context.chatModel;
  if (context.log) options.logger = context.log;
  return options;
}

/** The `[memory]` keys this backend does not honour: the driver's declaration, not a copy. */
export const unhonouredSettings: UnhonouredSettings = MARKDOWN_UNHONOURED_SETTINGS;

/** Entry point for `createMemory` (`backend = "markdown"`). Nothing is read until first use. */
export function createMemoryFromConfig(
  config: MemoryConfig,
  context: BackendContext = {},
): MarkdownMemory {
  return createMarkdownMemory(markdownOptionsFromConfig(config, context));
}

function canonical(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    try {
      return join(realpathSync.native(dirname(dir)), basename(dir));
    } catch {
      return dir;
    }
  }
}

/** The tree `config` opens (`BackendModule.describeStore`): identity `markdown:<absolute dir>`. */
export function describeStore(config: MemoryConfig): StoreDescription {
  const location = canonical(markdownRoot(config));
  return { identity: `markdown:${location}`, location };
}
