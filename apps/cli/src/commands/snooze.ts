import type { SnoozeOptions } from "@memory/api";
import { UsageError } from "../cli/cli-errors.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { namespaceFlag } from "./shared/describe-marks.js";

export interface SnoozeCommandOptions {
  until?: string;
  /** Milliseconds (`--for 7d`, parsed by parseSnoozeFor). */
  for?: number;
  namespace?: string;
}

/** Without --until or --for: a week, the length the web inspector's button uses too. */
const DEFAULT_SNOOZE_MS = 7 * 86_400_000;

/**
 * `memory snooze <key> [--until <time> | --for 7d]`: the library checks the time (a past one,
 * or not a time, is INVALID_INPUT: exit code 2) and the key (NOT_FOUND: exit code 3).
 */
const snooze: CommandHandler<SnoozeCommandOptions> = async (context, args, options) => {
  const [key] = args as [string];
  if (options.until !== undefined && options.for !== undefined)
    throw new UsageError("Give --until or --for, not both.");
  const namespace = options.namespace === undefined ? {} : { namespace: options.namespace };
  const when: SnoozeOptions =
    options.until !== undefined
      ? { ...namespace, until: options.until }
      : { ...namespace, forMs: options.for ?? DEFAULT_SNOOZE_MS };
  const { memory } = await context.open("none");
  const entry = await memory.snooze(key, when);
  context.output.result(entry, () => [
    `snoozed ${entry.key} until ${entry.snoozedUntil} (namespace ${entry.namespace}): recall and the memory context leave it out until then (recall --include-snoozed shows it)`,
    `undo: memory unsnooze ${entry.key}${namespaceFlag(entry.namespace)}`,
  ]);
};

export default snooze;
