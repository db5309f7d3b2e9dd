import { InvalidInputError } from "@memory/api";
import type { CommandHandler } from "../cli/lazy-action.js";

export interface FeedbackOptions {
  used?: string[];
  ignored?: string[];
  reply?: string;
  namespace?: string;
}

/**
 * `memory feedback <recallId> --used k1,k2 [--ignored k3]` (or `--reply <text>`, inferred by
 * `feedbackFromReply`): what the agent did with a recall's results. The library checks them: an unknown recallId is NOT_FOUND (exit code 3), a key that
 * was not a result INVALID_INPUT (exit code 2).
 */
const feedback: CommandHandler<FeedbackOptions> = async (context, args, options) => {
  const [recallId] = args as [string];
  if ((options.reply === undefined) === (options.used === undefined))
    throw new InvalidInputError(
      "memory feedback needs either --used <keys> (--used '' for none) or --reply <text>, not both.",
    );
  if (options.reply !== undefined && options.ignored !== undefined)
    throw new InvalidInputError("--ignored goes with --used; with --reply, both are inferred.");
  const { memory } = await context.open("none");
  const namespace = options.namespace === undefined ? {} : { namespace: options.namespace };
  const report =
    options.reply !== undefined
      ? await memory.feedbackFromReply(recallId, options.reply, namespace)
      : await memory.feedback({
          recallId,
          used: options.used ?? [],
          ...(options.ignored === undefined ? {} : { ignored: options.ignored }),
          ...namespace,
        });
  const list = (keys: string[]) => (keys.length === 0 ? "none" : keys.join(", "));
  context.output.result(report, () => [
    `recorded feedback on ${report.recallId}: used ${list(report.used)}; ignored ${list(report.ignored)}`,
  ]);
};

export default feedback;
