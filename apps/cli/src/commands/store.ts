import type { StoreInput } from "@memory/api";
import { contentKey } from "@memory/core";
import { UsageError } from "../cli/cli-errors.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { readStdin } from "../io/read-stdin.js";
import { describeConflict, describeKeptVersion } from "./shared/describe-conflict.js";
import { entryHeadline } from "./shared/describe-entry.js";

export interface StoreOptions {
  key?: string;
  category: string;
  namespace?: string;
  session?: string;
  importance?: number;
}

/**
 * A key derived from the content: storing the same text twice updates one entry instead of
 * creating a duplicate, which is what a script re-running `memory store` wants.
 */
export function generatedKey(content: string): string {
  // The same derivation as MCP memory_store without a key and consolidation's promoted entries.
  return contentKey(content);
}

async function readContent(words: readonly string[], stdinIsTerminal: boolean): Promise<string> {
  if (words.length > 0 && !(words.length === 1 && words[0] === "-")) return words.join(" ");
  if (stdinIsTerminal) {
    throw new UsageError(
      'no content: pass it as an argument (memory store "text") or pipe it on stdin',
    );
  }
  // `echo text | memory store` ends with one newline that is not part of the memory.
  return (await readStdin()).replace(/\r?\n$/, "");
}

/** `memory store`: upserts one entry on (namespace, key). */
const store: CommandHandler<StoreOptions> = async (context, args, options) => {
  const { key, category, namespace, session, importance } = options;
  const [words = []] = args as [string[] | undefined];
  const content = await readContent(words, context.output.terminal.interactiveInput);
  const input: StoreInput = { key: key ?? generatedKey(content), content, category };
  if (namespace !== undefined) input.namespace = namespace;
  if (session !== undefined) input.sessionId = session;
  if (importance !== undefined) input.importance = importance;
  const { memory } = await context.open("configured");
  const entry = await memory.store(input);
  context.output.result(entry, () => {
    const lines = [`stored ${entryHeadline(entry, context.output.style)}`];
    // Conflict detection (conflict_mode): how the entry was read, what it superseded and why.
    lines.push(...describeConflict(entry.conflict));
    lines.push(...describeKeptVersion(entry));
    return lines;
  });
};

export default store;
